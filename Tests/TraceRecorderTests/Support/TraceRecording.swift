import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceRecorder
import XCTest

/// Records a session of a feature written in a test: a store of `reducer` with the recorder
/// on and the fixed dependencies of `recordedDependencies(clock:)`, driven by `script`.
///
/// ```swift
/// let path = try await TraceRecording.record(Search(), in: directory) { store, clock in
///   store.send(.queryChanged("a"))
/// }
/// ```
@MainActor
enum TraceRecording {
  static func record<R: Reducer>(
    _ reducer: R, initialState: R.State, in directory: TemporaryDirectory,
    name: String = "session.rewind",
    _ script: (Store<R.State, R.Action>, TestClock) async throws -> Void
  ) async throws -> String where R.State: Codable & Sendable, R.Action: Codable {
    let path = directory.path(name)
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(
      initialState: initialState,
      reducer: { reducer.recording(to: recorder) },
      withDependencies: recordedDependencies(clock: clock))
    try await script(store, clock)
    // Finished while the store lives: effects still running are recorded as unfinished.
    await recorder.waitUntilFinished()
    withExtendedLifetime(store) {}
    XCTAssertNil(recorder.error)
    return path
  }
}
