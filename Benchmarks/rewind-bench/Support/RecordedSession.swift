import ComposableCore
import Foundation
import TraceRecorder

/// Runs a script of actions through a store, recorded into a new trace or bare, and times it.
///
/// ```swift
/// let run = try RecordedSession.record(
///   TodoList(), initialState: TodoList.State(count: 10_000), steps: 10_000,
///   path: "/tmp/todos.rewind") { TodoList.action(at: $0, count: 10_000) }
/// run.nanos      // send of every action + finishBlocking()
/// run.fileSize   // the closed trace
/// ```
@MainActor
enum RecordedSession {
  struct Run {
    var nanos: Double
    var fileSize: Int
  }

  /// Sends `steps` actions (steps 1…steps of `script`) to a store whose reducer records into a
  /// new trace at `path`; the time runs from before the first send until `finishBlocking()`
  /// returned (every step encoded, diffed, compressed and committed). With `removingFile`, the
  /// trace is deleted once measured (samples of a long run would otherwise fill the scratch
  /// disk).
  static func record<R: Reducer>(
    _ reducer: R, initialState: R.State, steps: Int, path: String, removingFile: Bool = false,
    script: (Int) -> R.Action
  ) throws -> Run where R.State: Codable & Sendable, R.Action: Codable {
    let recorder = try Recorder(path: path)
    let nanos = recordedNanos(
      Store(initialState: initialState) { reducer.recording(to: recorder) }, recorder,
      steps: steps, script: script)
    // The store is gone: the tasks it queued run now, outside the timing (see `MainQueue`).
    MainQueue.drain()
    if let error = recorder.error { throw BenchError("the recorder stopped: \(error)") }
    let run = Run(nanos: nanos, fileSize: try TraceFile.size(path))
    if removingFile { TraceFile.remove(path) }
    return run
  }

  /// The time from before the first send until `finishBlocking()` returned; the store ends
  /// with the call.
  private static func recordedNanos<State, Action>(
    _ store: consuming Store<State, Action>, _ recorder: Recorder, steps: Int,
    script: (Int) -> Action
  ) -> Double {
    let start = Stopwatch.now()
    for step in 1...steps { store.send(script(step)) }
    recorder.finishBlocking()
    return Double(Stopwatch.now() - start)
  }

  /// How many steps a sample should have to take about `seconds`: the rate of a pilot run of
  /// `pilot` steps times `seconds`, kept inside `range`. The pilot also warms up.
  static func calibratedSteps(
    pilot: Int, seconds: Double, range: ClosedRange<Int>, measure: (Int) throws -> Double
  ) rethrows -> Int {
    let nanos = try measure(pilot)
    let rate = Double(pilot) / max(nanos / 1e9, 1e-9)
    return min(max(Int(rate * seconds), range.lowerBound), range.upperBound)
  }

  /// The same sends without recording.
  static func bare<R: Reducer>(
    _ reducer: R, initialState: R.State, steps: Int, script: (Int) -> R.Action
  ) -> Double {
    let nanos = bareNanos(Store(initialState: initialState) { reducer }, steps: steps, script: script)
    MainQueue.drain()
    return nanos
  }

  private static func bareNanos<State, Action>(
    _ store: consuming Store<State, Action>, steps: Int, script: (Int) -> Action
  ) -> Double {
    let start = Stopwatch.now()
    for step in 1...steps { store.send(script(step)) }
    return Double(Stopwatch.now() - start)
  }
}
