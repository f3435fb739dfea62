import ComposableCore
import Foundation
import TraceRecorder

/// Records a long-running live session of a scenario: the live clients on the real clock, a
/// steady stream of user actions, until `duration` passes or SIGINT/SIGTERM arrives; then the
/// trace is closed (effects still running are marked unfinished).
///
/// ```swift
/// let summary = try await LiveSession(scenario: TodosScenario(), duration: .seconds(10))
///   .run(to: "/tmp/live.rewind", stop: StopSignal.install())
/// // "Recorded 214 steps (61 user actions) to /tmp/live.rewind"
/// ```
@MainActor
struct LiveSession<S: Scenario> {
  let scenario: S
  let duration: Duration?

  func run(to path: String, stop: StopSignal) async throws(DemoError) -> String {
    guard !FileManager.default.fileExists(atPath: path) else {
      throw DemoError.outputExists(path)
    }
    let recorder = Recorder(
      path: path,
      configuration: Recorder.Configuration(extra: [
        "app": "rewind-demo", "mode": "run", "scenario": scenario.name,
      ])
    )
    let store = Store(initialState: scenario.initialState()) {
      scenario.makeReducer().recording(to: recorder)
    } withDependencies: {
      // Live values even when a test process launched the demo (its environment says
      // "testing", which would select test values).
      $0.context = .live
    }
    var random = DemoRandom(seed: UInt64.random(in: .min ... .max))
    let start = ContinuousClock.now
    func shouldGoOn() -> Bool {
      guard !stop.isRequested else { return false }
      guard let duration else { return true }
      return ContinuousClock.now - start < duration
    }
    print("Recording \(scenario.name) to \(path); stop with Ctrl-C.")
    // A process that attaches (inspector follow, a test) waits for this line.
    fflush(nil)
    var sent = 0
    var opening = scenario.openingActions()[...]
    while shouldGoOn() {
      let action =
        opening.popFirst() ?? scenario.nextAction(in: store.withState { $0 }, random: &random)
      if let action {
        store.send(action)
        sent += 1
      }
      await pause(random.pause(upTo: scenario.longestPause), while: shouldGoOn)
    }
    await recorder.waitUntilFinished()
    let steps = recorder.stepCount
    withExtendedLifetime(store) {}
    if let error = recorder.error {
      throw DemoError.recording(error)
    }
    return "Recorded \(counted(steps, "step")) (\(counted(sent, "user action"))) to \(path)"
  }

  /// Sleeps for `duration` in short slices, returning early when `shouldGoOn` turns false.
  func pause(_ duration: Duration, while shouldGoOn: () -> Bool) async {
    let end = ContinuousClock.now.advanced(by: duration)
    while shouldGoOn(), ContinuousClock.now < end {
      try? await Task.sleep(for: min(.milliseconds(20), ContinuousClock.now.duration(to: end)))
    }
  }
}
