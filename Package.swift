// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Rewind",
  products: [
    .library(name: "ComposableCore", targets: ["ComposableCore"]),
    .library(name: "ComposableClocks", targets: ["ComposableClocks"]),
    .library(name: "ComposableTesting", targets: ["ComposableTesting"]),
    .library(name: "TraceValues", targets: ["TraceValues"]),
    .library(name: "TraceKit", targets: ["TraceKit"]),
    .executable(name: "inspector", targets: ["inspector"]),
    .library(name: "TraceRecorder", targets: ["TraceRecorder"]),
  ],
  targets: [
    // System libraries. Only Sources/TraceKit/Storage/SQLite imports CSQLite and only
    // Sources/TraceKit/Compression imports CLZ4 (and CLineLZ4, the step lines' compressor).
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .systemLibrary(
      name: "CLZ4",
      path: "Sources/CLZ4",
      providers: [.apt(["liblz4-dev"])]
    ),
    // The terminal library of `inspector open`; only Sources/InspectorKit/Interactive/Curses
    // imports it.
    .systemLibrary(
      name: "CNcursesw",
      path: "Sources/CNcursesw",
      providers: [.apt(["libncurses-dev"])]
    ),

    // The package's lock: `Synchronization.Mutex`, or in ThreadSanitizer builds
    // (`-DREWIND_TSAN_LOCKS`) a pthread mutex that TSan sees (Sources/Locking).
    .target(name: "Locking"),
    .testTarget(name: "LockingTests", dependencies: ["Locking"]),

    // The architecture.
    .target(name: "ComposableCore", dependencies: ["Locking"]),
    // Clocks for tests and scripted sessions (TestClock, ImmediateClock); no XCTest, so an
    // app or the demo can use them.
    .target(name: "ComposableClocks", dependencies: ["ComposableCore", "Locking"]),
    // Failure messages render through TraceValues' one look for values and diffs.
    .target(
      name: "ComposableTesting",
      dependencies: ["ComposableCore", "ComposableClocks", "TraceValues", "Locking"]
    ),

    // The value model of traces (values, Codable encoding, paths, diff and patch, hashing) and
    // the one renderer of values and diffs: toolchain only, so that ComposableTesting can show
    // failures in the inspector's look without linking SQLite or LZ4.
    .target(name: "TraceValues", dependencies: ["Locking"]),
    .testTarget(name: "TraceValuesTests", dependencies: ["TraceValues", "TestSupport"]),

    // The trace format.
    .target(name: "TraceKit", dependencies: ["TraceValues", "CSQLite", "CLZ4", "CLineLZ4"]),
    // LZ4 frames of step lines, written by our own match finder (liblz4 reads them).
    .target(name: "CLineLZ4", path: "Sources/CLineLZ4"),

    // Live attach: the per-user socket directory, the socket layer (only
    // Sources/LiveAttach/System makes system calls) and the versioned protocol between a
    // recording app and the inspector (docs/live-protocol.md).
    .target(name: "LiveAttach", dependencies: ["TraceKit", "Locking"]),
    .testTarget(name: "LiveAttachTests", dependencies: ["LiveAttach", "TraceKit", "TestSupport"]),

    // The Recorder higher-order reducer and typed replay.
    // `_printChanges()` renders its diffs with TraceValues' one renderer.
    .target(name: "TraceRecorder", dependencies: [
      "ComposableCore", "TraceKit", "LiveAttach", "CRandomWatch", "CMemoryHints", "Locking",
    ]),
    // Cache hints for the capture queue's producer (prefetching the slots it writes next).
    .target(name: "CMemoryHints", path: "Sources/CMemoryHints"),
    // Counts a thread's calls for system randomness (a seccomp filter on that thread alone):
    // typed replay runs reducers on such a thread. Only TraceRecorder/Replay imports it.
    .target(name: "CRandomWatch", path: "Sources/CRandomWatch"),

    // Shared test helpers (temporary files, fixture paths, snapshot asserts).
    .target(name: "TestSupport", dependencies: ["TraceKit", "Locking"], path: "Tests/TestSupport"),

    .testTarget(
      name: "ComposableCoreTests",
      dependencies: ["ComposableCore", "ComposableTesting", "TestSupport", "Locking"]
    ),
    .testTarget(
      name: "ComposableTestingTests",
      dependencies: ["ComposableCore", "ComposableTesting", "TraceValues"]
    ),
    .testTarget(
      name: "ComposableClocksTests",
      dependencies: ["ComposableCore", "ComposableClocks"]
    ),
    .testTarget(name: "TraceKitTests", dependencies: ["TraceKit", "TestSupport"]),

    // The inspector: all logic in InspectorKit; the executable parses arguments and exits.
    .target(
      name: "InspectorKit",
      dependencies: ["TraceKit", "TraceValues", "LiveAttach", "CNcursesw", "Locking"]
    ),
    .executableTarget(name: "inspector", dependencies: ["InspectorKit"]),
    // Writes the inspector's deterministic sample session: end-to-end tests, follow, benchmarks.
    .executableTarget(name: "inspector-test-writer", dependencies: ["TraceKit"]),
    .testTarget(
      name: "InspectorKitTests",
      dependencies: ["InspectorKit", "LiveAttach", "TestSupport"],
      exclude: ["EndToEnd/Snapshots", "Interactive/Snapshots"]
    ),
    .testTarget(
      name: "TraceRecorderTests",
      // InspectorKit: the changed paths the recorder indexes are checked against the paths
      // the inspector's diff shows.
      dependencies: ["TraceRecorder", "ComposableCore", "ComposableTesting", "TraceKit",
        "LiveAttach", "TestSupport", "InspectorKit", "Locking"]
    ),
    // The child process of the recorder's kill and write-error tests: records a feature.
    .executableTarget(
      name: "recorder-test-child",
      dependencies: ["TraceRecorder", "ComposableCore"],
      path: "Tests/RecorderTestChild"
    ),
    // Profiling aids beside rewind-bench: single-purpose release runs of the recorder and of
    // the trace container that print their numbers (and run under callgrind in seconds).
    .executableTarget(
      name: "recorder-bench",
      dependencies: ["TraceRecorder", "ComposableCore", "TraceKit", "Locking"],
      path: "Benchmarks/recorder-bench"
    ),

    .executableTarget(
      name: "trace-format-bench",
      dependencies: ["TraceKit"],
      path: "Benchmarks/trace-format-bench"
    ),
    // The child process of the row-level corruption test: every inspector command, in process,
    // on every damaged trace of a directory; a trap or a hang ends it, not the test.
    .executableTarget(
      name: "inspector-corruption-child",
      dependencies: ["InspectorKit"],
      path: "Tests/InspectorCorruptionChild"
    ),
    // The child process of the trace crash and live-follow tests.
    .executableTarget(
      name: "trace-writer-child",
      dependencies: ["TraceKit"],
      path: "Tests/TraceWriterChild"
    ),

    // Benchmarks (issue 7): a release-mode executable that prints numbers; run by tools/bench.
    .executableTarget(
      name: "rewind-bench",
      dependencies: [
        "ComposableCore", "TraceKit", "TraceRecorder", "CounterFeature", "ShowcaseFeature",
        "SearchFeature", "FixtureSupport", "LiveAttach", "Locking",
      ],
      path: "Benchmarks/rewind-bench"
    ),
    // The benchmark harness's own logic (statistics, options, the reflection baseline's text).
    .testTarget(
      name: "RewindBenchTests",
      dependencies: ["rewind-bench", "TestSupport"],
      path: "Benchmarks/Tests/RewindBenchTests"
    ),

    // Fixtures: the seeds' sample features, one target each (Fixtures/Features). The folder tab
    // follows seed 000's modular design: the parent depends only on its children's interface
    // targets, and the composing target FixtureFeatures injects the implementations.
    .target(
      name: "FixtureSupport", dependencies: ["ComposableCore"], path: "Fixtures/Features/Support"),
    .target(
      name: "CounterFeature",
      dependencies: ["ComposableCore"],
      path: "Fixtures/Features/Counter"
    ),
    .target(
      name: "WeatherFeature",
      dependencies: ["ComposableCore", "FixtureSupport"],
      path: "Fixtures/Features/Weather"
    ),
    .target(
      name: "FolderInterface",
      dependencies: ["ComposableCore", "FixtureSupport"],
      path: "Fixtures/Features/FolderTab/FolderInterface"
    ),
    .target(
      name: "FolderFeature",
      dependencies: ["ComposableCore", "FixtureSupport", "FolderInterface"],
      path: "Fixtures/Features/FolderTab/FolderFeature"
    ),
    .target(
      name: "CalendarInterface",
      dependencies: ["ComposableCore", "FixtureSupport"],
      path: "Fixtures/Features/FolderTab/CalendarInterface"
    ),
    .target(
      name: "CalendarFeature",
      dependencies: ["ComposableCore", "FixtureSupport", "CalendarInterface"],
      path: "Fixtures/Features/FolderTab/CalendarFeature"
    ),
    .target(
      name: "FolderTabFeature",
      dependencies: ["ComposableCore", "FixtureSupport", "FolderInterface", "CalendarInterface"],
      path: "Fixtures/Features/FolderTab/FolderTabFeature"
    ),
    .target(
      name: "HomeFeature",
      dependencies: ["ComposableCore", "FixtureSupport"],
      path: "Fixtures/Features/Home"
    ),
    .target(
      name: "TodosFeature",
      dependencies: ["ComposableCore", "FixtureSupport"],
      path: "Fixtures/Features/Todos"
    ),
    .target(
      name: "SearchFeature",
      dependencies: ["ComposableCore", "FixtureSupport"],
      path: "Fixtures/Features/Search"
    ),
    // The fixtures composed (Scope, forEach, presentation, onChange): benchmarks of depth.
    .target(
      name: "ShowcaseFeature",
      dependencies: ["ComposableCore", "CounterFeature", "TodosFeature", "SearchFeature"],
      path: "Fixtures/Features/Showcase"
    ),
    .target(
      name: "FixtureFeatures",
      dependencies: [
        "ComposableCore", "FixtureSupport", "CounterFeature", "WeatherFeature",
        "FolderInterface", "FolderFeature", "CalendarInterface", "CalendarFeature",
        "FolderTabFeature", "HomeFeature", "TodosFeature",
      ],
      path: "Fixtures/Features/FixtureFeatures"
    ),
    // The demo app: scripted and live sessions of the fixtures with the Recorder on, and
    // typed replay of their traces.
    .executableTarget(
      name: "rewind-demo",
      dependencies: [
        "ComposableCore", "ComposableClocks", "TraceRecorder", "TraceKit", "FixtureFeatures",
        "FixtureSupport",
        "CounterFeature", "WeatherFeature", "FolderInterface", "FolderFeature",
        "CalendarInterface", "CalendarFeature", "FolderTabFeature", "HomeFeature",
        "TodosFeature", "SearchFeature",
      ],
      path: "Fixtures/Demo"
    ),
    // Runs the built rewind-demo: output, exit status and the traces it writes.
    .testTarget(name: "RewindDemoTests", dependencies: ["TraceKit", "TestSupport"]),
    // The tests `inspector testgen` generates from the committed fixture traces, compiled and
    // run as they are (InspectorKitTests' TestgenContractTests keeps them what testgen prints).
    .testTarget(
      name: "GeneratedTraceTests",
      dependencies: [
        "ComposableTesting", "TraceRecorder", "FixtureFeatures", "CounterFeature",
        "WeatherFeature", "FolderTabFeature", "FolderFeature", "CalendarFeature", "HomeFeature",
        "TodosFeature",
      ]
    ),
    .testTarget(
      name: "FixtureFeaturesTests",
      dependencies: ["FixtureFeatures", "SearchFeature", "ComposableCore", "ComposableTesting"]
    ),
  ]
)
