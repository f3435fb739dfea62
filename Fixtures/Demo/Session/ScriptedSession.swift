import ComposableClocks
import ComposableCore
import Foundation
import Synchronization
import TraceRecorder

/// Records a scripted, seeded session of a scenario: real reducers and real effects (the live
/// clients), on a virtual clock that the script advances, so the same seed records the same
/// actions in the same order — user actions and the actions effects send back.
///
/// ```swift
/// let summary = try await ScriptedSession(scenario: CounterScenario(), seed: 1, steps: 20)
///   .record(to: "/tmp/counter.rewind")
/// // "Recorded 31 steps (20 user actions, seed 1) to /tmp/counter.rewind"
/// ```
@MainActor
struct ScriptedSession<S: Scenario> {
  let scenario: S
  let seed: UInt64
  /// The number of scripted user actions after the scenario's opening actions.
  let steps: Int

  /// 2026-05-12 08:00:00 UTC: virtual time zero (the seeds' study day, before school).
  static var epoch: Date { Date(timeIntervalSince1970: 1_778_572_800) }

  func record(to path: String) async throws(DemoError) -> String {
    guard !FileManager.default.fileExists(atPath: path) else {
      throw DemoError.outputExists(path)
    }
    let clock = TestClock()
    // The trace keeps the virtual time the session lived in: a test generated from it
    // advances its clock as the script did.
    let recorder = try Recorder.demo(
      path: path,
      extra: [
        "mode": "record", "scenario": scenario.name, "seed": "\(seed)", "steps": "\(steps)",
      ],
      clock: clock)
    var random = DemoRandom(seed: seed)
    let core = RootCore(
      initialState: scenario.initialState(),
      reducer: scenario.makeReducer().recording(to: recorder),
      dependencies: dependencies(clock: clock, uuidSeed: random.next())
    )
    var sent = 0
    for action in scenario.openingActions() {
      _ = core.send(action, origin: .store)
      sent += 1
      try await settle(core, clock, after: sent)
      try await pass(random.pause(upTo: scenario.longestPause), core, clock, after: sent)
    }
    var scripted = 0
    var turns = 0
    // A script that keeps waiting (nil) must still end.
    while scripted < steps, turns < 20 * (steps + 1) {
      turns += 1
      if let action = scenario.nextAction(in: core.state, random: &random) {
        _ = core.send(action, origin: .store)
        sent += 1
        scripted += 1
        try await settle(core, clock, after: sent)
      }
      try await pass(random.pause(upTo: scenario.longestPause), core, clock, after: sent)
    }
    try await drain(core, clock, after: sent)
    await recorder.waitUntilFinished()
    if let error = recorder.error {
      throw DemoError.recording(error)
    }
    return "Recorded \(counted(recorder.stepCount, "step")) (\(counted(sent, "user action")), "
      + "seed \(seed)) to \(path)"
  }

  /// The live dependencies, with time, ids and random numbers made by the session.
  func dependencies(clock: TestClock, uuidSeed: UInt64) -> DependencyValues {
    var values = DependencyValues(context: .live)
    values.continuousClock = clock
    let epoch = Self.epoch
    values.date = DateGenerator {
      let (seconds, attoseconds) = clock.now.offset.components
      return epoch.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
    let ids = Mutex(SplitMix64(seed: uuidSeed))
    values.uuid = UUIDGenerator {
      let (high, low) = ids.withLock { ($0.next(), $0.next()) }
      return UUID(random: (high, low))
    }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(seed: uuidSeed ^ seed)
    return values
  }

  /// Waits until every running effect has finished or sleeps on the clock: then nothing can
  /// happen until the clock moves, and what happened does not depend on the machine's speed.
  func settle<R: Reducer>(
    _ core: RootCore<R>, _ clock: TestClock, after userAction: Int
  ) async throws(DemoError) {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    var rounds = 0
    while core.pendingOperationCount != clock.sleeperCount {
      rounds += 1
      if rounds < 64 {
        await Task.yield()
      } else {
        guard ContinuousClock.now < deadline else {
          throw DemoError.stalled(scenario: scenario.name, userAction: userAction)
        }
        try? await Task.sleep(for: .microseconds(200))
      }
    }
  }

  /// Lets `duration` of virtual time pass, waking the sleepers due in it one by one.
  func pass<R: Reducer>(
    _ duration: Duration, _ core: RootCore<R>, _ clock: TestClock, after userAction: Int
  ) async throws(DemoError) {
    let limit = clock.now.advanced(by: duration)
    while clock.wakeNextSleeper(until: limit) {
      try await settle(core, clock, after: userAction)
    }
  }

  /// Lets every effect still sleeping run to its end.
  func drain<R: Reducer>(
    _ core: RootCore<R>, _ clock: TestClock, after userAction: Int
  ) async throws(DemoError) {
    var wakes = 0
    while let deadline = clock.nextDeadline, wakes < 10_000 {
      wakes += 1
      clock.wakeNextSleeper(until: deadline)
      try await settle(core, clock, after: userAction)
    }
  }
}
