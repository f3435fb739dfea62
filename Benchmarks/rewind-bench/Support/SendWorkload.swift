import ComposableCore
import CounterFeature
import ShowcaseFeature
import TraceRecorder

/// A feature and its script, sent through a bare store or a recorded one.
@MainActor
struct SendWorkload {
  let label: String
  /// Time per send through a recording store (its trace already created by one send).
  let recorded: @MainActor (_ sends: Int, _ path: String) throws -> SendTiming
  /// Time per send through a bare store.
  let bare: @MainActor (_ sends: Int) -> SendTiming

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

  /// Time per send through a store recording to `path` with `configuration`.
  static func recordedSends<R: Reducer>(
    _ reducer: R, _ state: R.State, _ count: Int, path: String,
    configuration: Recorder.Configuration = .init(), script: (Int) -> R.Action
  ) throws -> SendTiming where R.State: Codable & Sendable, R.Action: Codable {
    let recorder = try Recorder(path: path, configuration: configuration)
    let timing = timedSends(
      Store(initialState: state) { reducer.recording(to: recorder) }, count, script: script)
    recorder.finishBlocking()
    if let error = recorder.error { throw BenchError("the recorder stopped: \(error)") }
    TraceFile.remove(path)
    return timing
  }

  /// Time per send through a store without a recorder.
  static func bareSends<R: Reducer>(
    _ reducer: R, _ state: R.State, _ count: Int, script: (Int) -> R.Action
  ) -> SendTiming {
    timedSends(Store(initialState: state) { reducer }, count, script: script)
  }

  /// Times `count` sends through `store` after a first one, ends the store, and runs the
  /// tasks it queued on the main actor (outside the timing): its effects were cancelled with
  /// it, and each one's task lets go of what it holds only when it runs. Without this, every
  /// sample's tasks stayed queued until the process ended, with their effect trees and
  /// captures, and each sample started on a bigger heap.
  static func timedSends<State, Action>(
    _ store: consuming Store<State, Action>, _ count: Int, script: (Int) -> Action
  ) -> SendTiming {
    store.send(script(1))
    let timing = SendTiming.sends(store, count, script: script)
    _ = consume store
    MainQueue.drain()
    return timing
  }
}
