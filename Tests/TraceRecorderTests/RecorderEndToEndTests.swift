import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Records `RecordedFeature` through `runRecordedScript` and reads the trace back.
///
/// The script's steps: 1 refresh (merge of a `.send` and a `.run`, reads uuid, date and
/// random), 2 refreshStarted (the `.send` of step 1), 3 refreshed (from the `.run`), 4 stopwatch
/// start (scoped timer), 5 tick (from the timer), 6 stop (`.cancel(id:)`), 7 and 8 search
/// (`cancelInFlight`), 9 searchResponse, 10 openDetail, 11 detail.watch, 12 closeDetail
/// (`ifLet` teardown), 13 addRow, 14 row watch, 15 removeRow (`forEach` teardown), 16 addRow,
/// 17 row watch (still running when the trace is closed).
@MainActor
final class RecorderEndToEndTests: XCTestCase {
  func testRecordsEveryStepWithItsOriginPathAndChanges() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let reader = try TraceReader(path: path)
    let effects = try reader.effects().sorted { ($0.startNanos ?? 0) < ($1.startNanos ?? 0) }
    let names = Dictionary(
      uniqueKeysWithValues: effects.enumerated().map { ($1.id, "E\($0 + 1)") })
    let rows = try reader.rows(from: 0, to: 100).map { row -> String in
      let origin: String
      switch row.origin {
      case .initial: origin = "initial"
      case .user: origin = "user"
      case .effect(let id): origin = names[id] ?? "unknown effect"
      default: origin = row.origin.storageText
      }
      return "\(row.step) \(origin) \(row.actionPath) \(row.changedPaths)"
    }
    XCTAssertEqual(
      rows,
      [
        "0 initial  []",
        "1 user refresh [\"refreshID\", \"refreshedAt\", \"lucky\"]",
        "2 send:1 refreshStarted [\"refreshes\"]",
        "3 E1 refreshed []",
        "4 user stopwatch.start [\"stopwatch.isRunning\"]",
        "5 E2 stopwatch.tick [\"stopwatch.seconds\"]",
        "6 user stopwatch.stop [\"stopwatch.isRunning\"]",
        "7 user search [\"query\"]",
        "8 user search [\"query\"]",
        "9 E4 searchResponse [\"results[0]\", \"results[1]\"]",
        "10 user openDetail [\"detail\"]",
        "11 user detail.watch [\"detail.isWatching\"]",
        "12 user closeDetail [\"detail\"]",
        "13 user addRow [\"rows[id: 1]\"]",
        "14 user rows.element.watch [\"rows[id: 1].isWatching\"]",
        "15 user removeRow [\"rows[id: 1]\"]",
        "16 user addRow [\"rows[id: 2]\"]",
        "17 user rows.element.watch [\"rows[id: 2].isWatching\"]",
      ])
    XCTAssertEqual(
      try reader.action(at: 8), .enumCase("search", [TraceField("_0", .string("ab"))]))
    XCTAssertEqual(try reader.info().isComplete, true)
  }

  func testRecordsEachEffectWithItsStepCancelIDSendsAndEnding() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let effects = try TraceReader(path: path).effects()
      .sorted { ($0.startNanos ?? 0) < ($1.startNanos ?? 0) }
    let file = "TraceRecorderTests/RecordedFeature.swift"
    let lines = try effectLines()
    let described = effects.map { effect in
      [
        "by \(effect.startedByStep)", effect.cancelID ?? "-",
        effect.file.map { $0 == file ? "at " + (lines[effect.line ?? 0] ?? "?") : $0 } ?? "-",
        "\(effect.outcome)", "sent \(effect.sentSteps)",
        effect.endNanos == nil ? "open" : "closed",
      ].joined(separator: " | ")
    }
    XCTAssertEqual(
      described,
      [
        "by 1 | - | at refresh | finished | sent [3] | closed",
        "by 4 | timer | at timer | cancelled(reason: \"cancel\", byStep: Optional(6))"
          + " | sent [5] | closed",
        "by 7 | search | at search | cancelled(reason: \"cancelInFlight\", byStep: Optional(8))"
          + " | sent [] | closed",
        "by 8 | search | at search | finished | sent [9] | closed",
        "by 11 | ifLet(detail) | at detail"
          + " | cancelled(reason: \"ifLet\", byStep: Optional(12)) | sent [] | closed",
        "by 14 | forEach(rows)#1 | at row"
          + " | cancelled(reason: \"forEach\", byStep: Optional(15)) | sent [] | closed",
        "by 17 | forEach(rows)#2 | at row | unfinished | sent [] | open",
      ])
  }

  func testRecordsDependencyReadsOfTheStepThatReadThem() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let reader = try TraceReader(path: path)
    let generator = WithRandomNumberGenerator(seed: 7)
    let firstRandom = generator { $0.next() as UInt64 }
    XCTAssertEqual(firstRandom, 7_191_089_600_892_374_487)
    XCTAssertEqual(
      try reader.dependencies(at: 1),
      [
        DependencyRead(key: "uuid", value: .string("00000000-0000-0000-0000-000000000000")),
        DependencyRead(key: "date", value: .double(1_000_000 - 978_307_200)),
        DependencyRead(key: "random", value: .int(Int64(firstRandom))),
      ])
    for step in 2...17 {
      XCTAssertEqual(try reader.dependencies(at: step), [], "step \(step)")
    }
  }

  func testHashesAreThoseOfTheRedactedStates() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    let finalState = try await recordScript(to: path)
    let reader = try TraceReader(path: path)
    var expected = try TraceValueEncoder().encode(finalState)
    let marker = TraceValue.string(
      "<redacted " + hex(TraceValue.string("hunter2").stableHash) + ">")
    try TraceDiff.apply([.set(try TracePath(parsing: "password"), marker)], to: &expected)
    XCTAssertEqual(try reader.state(at: 17), expected)
    XCTAssertEqual(try reader.row(at: 17).stateHash, expected.stableHash)
    for row in try reader.rows(from: 0, to: 17) {
      XCTAssertEqual(try reader.state(at: row.step).stableHash, row.stateHash)
      let password = try reader.state(at: row.step).value(at: TracePath(parsing: "password"))
      XCTAssertEqual(password, marker)
    }
  }

  func testWritesTheReducerTreeOnce() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.rewind")
    _ = try await recordScript(to: path)
    let tree = try XCTUnwrap(try TraceReader(path: path).tree())
    XCTAssertEqual(
      tree.lines,
      [
        "Recorder RecordedFeature",
        "  reducer RecordedFeature",
        "    sequence",
        "      Scope Stopwatch state=stopwatch action=stopwatch",
        "        reducer Stopwatch",
        // `Reduce { … }.ifLet(…).forEach(…)` reads as the Reduce, then each child.
        "      Reduce",
        "      ifLet Detail state=detail action=detail",
        "        reducer Detail",
        "      forEach Row state=rows action=rows",
        "        reducer Row",
      ])
  }

  func testStoreGoingAwayCancelsItsEffects() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("deinit.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    do {
      let store = Store(
        initialState: RecordedFeature.State(),
        reducer: { RecordedFeature().recording(to: recorder) },
        withDependencies: recordedDependencies(clock: clock))
      store.send(.addRow(5))
      store.send(.rows(.element(id: 5, action: .watch)))
      await clock.waitForSleepers(1)
    }
    await clock.waitForSleepers(0)
    await recorder.waitUntilFinished()
    let effects = try TraceReader(path: path).effects()
    XCTAssertEqual(effects.map(\.outcome), [.cancelled(reason: "storeDeinit", byStep: nil)])
    XCTAssertEqual(effects.map(\.startedByStep), [2])
  }

  /// The line numbers of the `.run` calls in RecordedFeature.swift, by their `// effect:` tag.
  private func effectLines() throws -> [Int: String] {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Support/RecordedFeature.swift")
    var lines: [Int: String] = [:]
    let text = try String(contentsOf: source, encoding: .utf8)
    let all = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in all.enumerated() {
      if let range = line.range(of: "// effect: ") {
        lines[index + 1] = String(line[range.upperBound...])
      }
    }
    return lines
  }

  func testCancellingTheStoreTaskEndsItsEffectsAsStoreTaskCancellations() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("task.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(
      initialState: RecordedFeature.State(),
      reducer: { RecordedFeature().recording(to: recorder) },
      withDependencies: recordedDependencies(clock: clock))
    store.send(.addRow(5))
    let task = store.send(.rows(.element(id: 5, action: .watch)))
    await clock.waitForSleepers(1)
    task.cancel()
    await clock.waitForSleepers(0)
    await task.finish()
    await recorder.waitUntilFinished()
    let effects = try TraceReader(path: path).effects()
    XCTAssertEqual(effects.map(\.outcome), [.cancelled(reason: "storeTask", byStep: nil)])
  }

  func testRedactedActionPathsAreStoredAsMarkers() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("actions.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path, configuration: .init(redactedActionPaths: ["search"]))
    let store = Store(
      initialState: RecordedFeature.State(),
      reducer: { RecordedFeature().recording(to: recorder) },
      withDependencies: recordedDependencies(clock: clock))
    store.send(.search("secret query"))
    store.send(.openDetail)
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: path)
    let marker = TraceValue.string(
      "<redacted " + hex(TraceValue.string("secret query").stableHash) + ">")
    XCTAssertEqual(try reader.action(at: 1), .enumCase("search", [TraceField("_0", marker)]))
    XCTAssertEqual(try reader.row(at: 1).actionPath, "search")
    XCTAssertEqual(try reader.action(at: 2), .enumCase("openDetail", []))
  }

  private func hex(_ value: UInt64) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }
}
