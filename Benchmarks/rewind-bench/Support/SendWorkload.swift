import ComposableCore
import CounterFeature
import ShowcaseFeature
import TraceRecorder

/// A feature and its script, sent through a bare store or a recorded one.
@MainActor
struct SendWorkload {
  /// Per-send time of one sample: wall clock, and CPU time of the main thread.
  struct Timing {
    var wall: Double
    var cpu: Double
  }

  let label: String
  /// Time per send through a recording store (its trace already created by one send).
  let recorded: @MainActor (_ sends: Int, _ path: String) throws -> Timing
  /// Time per send through a bare store.
  let bare: @MainActor (_ sends: Int) -> Timing

  static let counter = SendWorkload(
    label: "Counter",
    recorded: { sends, path in
      try recordedSends(
        Counter(), Counter.State(), sends, path: path, script: CounterScript.action(at:))
    },
    bare: { sends in
      bareSends(Counter(), Counter.State(), sends, script: CounterScript.action(at:))
    })

  static let app = SendWorkload(
    label: "Showcase (Scope, forEach rows, presented search, onChange)",
    recorded: { sends, path in
      try recordedSends(
        Showcase(), Showcase.State(todoCount: ShowcaseScript.todoCount), sends, path: path,
        script: ShowcaseScript.action(at:))
    },
    bare: { sends in
      bareSends(
        Showcase(), Showcase.State(todoCount: ShowcaseScript.todoCount), sends,
        script: ShowcaseScript.action(at:))
    })

  private static func recordedSends<R: Reducer>(
    _ reducer: R, _ state: R.State, _ count: Int, path: String, script: (Int) -> R.Action
  ) throws -> Timing where R.State: Codable & Sendable, R.Action: Codable {
    let recorder = try Recorder(path: path)
    let store = Store(initialState: state) { reducer.recording(to: recorder) }
    store.send(script(1))
    let timing = timeSends(store, count, script)
    recorder.finishBlocking()
    if let error = recorder.error { throw BenchError("the recorder stopped: \(error)") }
    TraceFile.remove(path)
    return timing
  }

  private static func bareSends<R: Reducer>(
    _ reducer: R, _ state: R.State, _ count: Int, script: (Int) -> R.Action
  ) -> Timing {
    let store = Store(initialState: state) { reducer }
    store.send(script(1))
    return timeSends(store, count, script)
  }

  private static func timeSends<State, Action>(
    _ store: Store<State, Action>, _ count: Int, _ script: (Int) -> Action
  ) -> Timing {
    let cpuStart = Stopwatch.threadCPUNow()
    let start = Stopwatch.now()
    for step in 2...(count + 1) { store.send(script(step)) }
    let wall = Double(Stopwatch.now() - start)
    let cpu = Double(Stopwatch.threadCPUNow() - cpuStart)
    return Timing(wall: wall / Double(count), cpu: cpu / Double(count))
  }
}
