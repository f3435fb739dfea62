import ComposableCore
import ComposableTesting
import Foundation
import TraceKit
import TraceRecorder
import XCTest

/// Waits (polling, with a generous limit that only a hung test reaches) until `condition`.
@MainActor
func waitUntil(
  _ what: String, file: StaticString = #filePath, line: UInt = #line,
  _ condition: () -> Bool
) async {
  for _ in 0..<20_000 where !condition() {
    try? await Task.sleep(for: .milliseconds(1))
  }
  XCTAssertTrue(condition(), "timed out waiting until \(what)", file: file, line: line)
}

/// The fixed dependencies of every recorded session.
func recordedDependencies(clock: TestClock) -> (inout DependencyValues) -> Void {
  { values in
    values.continuousClock = clock
    values.uuid = .incrementing
    values.date = .constant(Date(timeIntervalSince1970: 1_000_000))
    values.withRandomNumberGenerator = WithRandomNumberGenerator(seed: 7)
  }
}

/// Drives `RecordedFeature` through every kind of step and effect ending; see the step list
/// in `RecorderEndToEndTests`. Returns the store (still alive, effect of step 17 running).
@MainActor
func runRecordedScript(
  _ store: Store<RecordedFeature.State, RecordedFeature.Action>, clock: TestClock
) async {
  await store.send(.refresh).finish()  // 1, 2, 3
  store.send(.stopwatch(.start))  // 4
  await clock.waitForSleepers(1)
  await clock.advance(by: .seconds(1))
  await store.waitForIdleEffects(on: clock)  // 5: the timer ticked and sleeps again
  XCTAssertEqual(store.state.stopwatch.seconds, 1)
  store.send(.stopwatch(.stop))  // 6
  await clock.waitForSleepers(0)
  store.send(.search("a"))  // 7
  let search = store.send(.search("ab"))  // 8
  await clock.waitForSleepers(1)
  await clock.advance(by: .seconds(1))
  await search.finish()  // 9
  store.send(.openDetail)  // 10
  store.send(.detail(.watch))  // 11
  await clock.waitForSleepers(1)
  store.send(.closeDetail)  // 12
  await clock.waitForSleepers(0)
  store.send(.addRow(1))  // 13
  store.send(.rows(.element(id: 1, action: .watch)))  // 14
  await clock.waitForSleepers(1)
  store.send(.removeRow(1))  // 15
  await clock.waitForSleepers(0)
  store.send(.addRow(2))  // 16
  store.send(.rows(.element(id: 2, action: .watch)))  // 17
  await clock.waitForSleepers(1)
}

/// Records the script into `path`; returns the final state.
@MainActor
func recordScript(
  to path: String, configuration: Recorder.Configuration = .init(redactedStatePaths: ["password"])
) async throws -> RecordedFeature.State {
  let clock = TestClock()
  let recorder = try Recorder(path: path, configuration: configuration)
  let store = Store(
    initialState: RecordedFeature.State(),
    reducer: { RecordedFeature().recording(to: recorder) },
    withDependencies: recordedDependencies(clock: clock))
  await runRecordedScript(store, clock: clock)
  await recorder.waitUntilFinished()
  XCTAssertNil(recorder.error)
  return store.state
}
