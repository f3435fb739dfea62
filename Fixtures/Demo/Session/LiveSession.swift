import ComposableCore
import Foundation
import TraceRecorder

/// Records a long-running live session of a scenario: the live clients on the real clock, a
/// steady stream of user actions, until `duration` passes or SIGINT/SIGTERM arrives; then the
/// recording is closed (effects still running are marked unfinished). It is written to a trace
/// file, or kept in memory for `inspector attach` (`--live`), or both.
///
/// ```swift
/// let summary = try await LiveSession(scenario: TodosScenario(), options: options)
///   .run(stop: StopSignal.install())
/// // "Recorded 214 steps (61 user actions) to /tmp/live.rewind"
/// ```
@MainActor
struct LiveSession<S: Scenario> {
  let scenario: S
  let options: LiveOptions

  func run(stop: StopSignal) async throws(DemoError) -> String {
    if let path = options.out, FileManager.default.fileExists(atPath: path) {
      throw DemoError.outputExists(path)
    }
    let recorder = try Recorder.demo(
      path: options.out, extra: ["mode": "run", "scenario": scenario.name], live: options.live)
    let store = Store(initialState: scenario.initialState()) {
      scenario.makeReducer().recording(to: recorder)
    } withDependencies: {
      // Live values even when a test process launched the demo (its environment says
      // "testing", which would select test values).
      $0.context = .live
    }
    var random = DemoRandom(seed: options.seed ?? UInt64.random(in: .min ... .max))
    let start = ContinuousClock.now
    func shouldGoOn() -> Bool {
      guard !stop.isRequested else { return false }
      guard let duration = options.duration else { return true }
      return ContinuousClock.now - start < duration
    }
    print(startLine)
    // A process that attaches (inspector follow or attach, a test) waits for this line.
    fflush(nil)
    var sent = 0
    var scripted = 0
    var opening = scenario.openingActions()[...]
    while shouldGoOn(), options.steps.map({ scripted < $0 }) ?? true {
      let isOpening = !opening.isEmpty
      let action =
        opening.popFirst() ?? scenario.nextAction(in: store.withState { $0 }, random: &random)
      if let action {
        store.send(action)
        sent += 1
        if !isOpening { scripted += 1 }
      }
      await pause(pauseLength(&random), while: shouldGoOn)
    }
    if options.steps != nil, shouldGoOn() {
      await idle(store, while: shouldGoOn)
      print("Sent \(counted(sent, "user action")); idle until stopped.")
      fflush(nil)
      while shouldGoOn() { await pause(.milliseconds(100), while: shouldGoOn) }
    }
    await recorder.waitUntilFinished()
    let steps = recorder.stepCount
    withExtendedLifetime(store) {}
    if let error = recorder.error {
      throw DemoError.recording(error)
    }
    let place = options.out.map { "to \($0)" } ?? "in memory"
    return "Recorded \(counted(steps, "step")) (\(counted(sent, "user action"))) \(place)"
  }

  /// What the session says when it starts.
  private var startLine: String {
    var place = options.out.map { "to \($0)" } ?? ""
    if options.live {
      place += (place.isEmpty ? "" : " and ") + "for inspector attach (pid \(getpid()))"
    }
    return "Recording \(scenario.name) \(place); stop with Ctrl-C."
  }

  private func pauseLength(_ random: inout DemoRandom) -> Duration {
    guard let longest = options.longestPause else {
      return random.pause(upTo: scenario.longestPause)
    }
    return longest == .zero ? .zero : random.pause(upTo: longest)
  }

  /// Waits until no effect of the store is doing anything of its own.
  private func idle(
    _ store: Store<S.Feature.State, S.Feature.Action>, while shouldGoOn: () -> Bool
  ) async {
    guard let core = store.core as? any PendingOperationCounting else { return }
    while shouldGoOn(), core.pendingOperationCount > 0 {
      await pause(.milliseconds(5), while: shouldGoOn)
    }
  }

  /// Sleeps for `duration` in short slices, returning early when `shouldGoOn` turns false.
  func pause(_ duration: Duration, while shouldGoOn: () -> Bool) async {
    guard duration > .zero else {
      await Task.yield()
      return
    }
    let end = ContinuousClock.now.advanced(by: duration)
    while shouldGoOn(), ContinuousClock.now < end {
      try? await Task.sleep(for: min(.milliseconds(20), ContinuousClock.now.duration(to: end)))
    }
  }
}
