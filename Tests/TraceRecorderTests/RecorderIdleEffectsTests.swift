import ComposableClocks
import ComposableCore
import Foundation
import Synchronization
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Where the test holds an effect: it tells when it entered, and returns when the gate opens.
final class EchoGate: Sendable {
  let entered = Atomic<Bool>(false)
  let (opened, open) = AsyncStream<Void>.makeStream()
}

/// A feature whose one effect returns when its gate opens.
struct Echo: Reducer {
  struct State: Equatable, Codable, Sendable {}

  enum Action: Equatable, Codable, Sendable {
    case echo
  }

  let gate: EchoGate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [gate] _ in
      gate.entered.store(true, ordering: .releasing)
      for await _ in gate.opened {}
    }
  }
}

@MainActor
final class RecorderIdleEffectsTests: XCTestCase {
  /// An effect whose operation returned is still pending until the core has done its
  /// bookkeeping on the main actor (and told the Recorder it finished): a recording stopped
  /// once the effects are idle has it finished, not unfinished.
  func testEffectsAreIdleOnlyOnceTheCoreHasSeenThemEnd() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("echo.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let gate = EchoGate()
    let store = Store(initialState: Echo.State()) { Echo(gate: gate).recording(to: recorder) }
    let core = try XCTUnwrap(store.core as? RootCore<RecordingReducer<Echo>>)
    store.send(.echo)
    let entered = await poll(timeout: .seconds(30)) {
      gate.entered.load(ordering: .acquiring)
    }
    XCTAssertTrue(entered, "the effect did not start")
    // From here the main actor is held until the checks below, so the core cannot hear of the
    // end of the operation, which returns on another thread.
    gate.open.finish()
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !core.effectsInFlight.isEmpty, ContinuousClock.now < deadline {}
    XCTAssertEqual(core.effectsInFlight.count, 0, "the operation did not return")
    XCTAssertEqual(core.pendingOperationCount, 1)

    await store.waitForIdleEffects(on: clock)
    XCTAssertEqual(core.pendingOperationCount, 0)
    await recorder.waitUntilFinished()
    XCTAssertEqual(try TraceReader(path: path).effects().map(\.outcome), [.finished])
  }
}
