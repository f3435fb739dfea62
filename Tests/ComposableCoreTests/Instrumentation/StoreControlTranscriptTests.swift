import ComposableCore
import Observation
import TestSupport
import XCTest

/// What an attached inspector does to a store through its control — pause, jump, resume,
/// continue from here, send — as the store's state shows it and as its instrument is told.
@MainActor
final class StoreControlTranscriptTests: XCTestCase {
  private let gates = EffectGates()
  private let transcript = Transcript()

  private func makeStore() -> (Store<Relay.State, Relay.Action>, any StoreControl<Relay.State,
    Relay.Action>)
  {
    let store = Store(initialState: Relay.State()) {
      Relay(gates: gates).transcribed(into: transcript)
    }
    // The store owns its instrument and the instrument keeps the control weakly.
    let control = transcript.control as! any StoreControl<Relay.State, Relay.Action>
    return (store, control)
  }

  /// Waits until the transcript has a line.
  private func waitForLine(_ line: String) async {
    let written = await eventually { self.transcript.lines.contains(line) }
    XCTAssertTrue(written, "no line \(line) in \(transcript.text)")
  }

  /// Waits until the effects named are waiting at their gates.
  private func waitForWaiters(_ names: String...) async {
    let waiting = await eventually { names.allSatisfy(self.gates.isWaiting) }
    XCTAssertTrue(waiting, "\(names) are not all waiting")
  }

  func testAPausedStoreHoldsUserAndEffectActionsInOrderAndResumeReducesThem() async throws {
    let (store, control) = makeStore()
    store.send(.plus)
    let relay = store.send(.relay("a"))
    await waitForWaiters("a")
    XCTAssertTrue(control.pause())
    XCTAssertFalse(control.pause())
    store.send(.plus)
    gates.open("a")
    let held = await eventually { control.controlStatus.heldActions == 2 }
    XCTAssertTrue(held)
    await waitForLine("E1 finished")
    XCTAssertEqual(store.state, Relay.State(count: 1, arrived: []))
    XCTAssertEqual(
      control.controlStatus,
      StoreControlStatus(
        lastStep: 2, isPaused: true, jumpedTo: nil, presentStep: nil, heldActions: 2))
    transcript.clear()
    XCTAssertNil(try control.resume())
    await relay.finish()
    XCTAssertEqual(store.state, Relay.State(count: 2, arrived: ["a"]))
    XCTAssertEqual(
      transcript.text,
      """
      step 3 from user: .plus
      end of step 3
      step 4 from E1: .arrived("a")
      end of step 4
      """)
  }

  func testAnInspectorSendIsReducedWhilePausedAndItsEffectsSendsAreHeld() async throws {
    let (store, control) = makeStore()
    control.pause()
    XCTAssertEqual(try control.sendFromInspector(.plus), 1)
    XCTAssertEqual(try control.sendFromInspector(.relay("b")), 2)
    await waitForWaiters("b")
    gates.open("b")
    let held = await eventually { control.controlStatus.heldActions == 1 }
    XCTAssertTrue(held)
    await waitForLine("E1 finished")
    XCTAssertEqual(store.state, Relay.State(count: 1, arrived: []))
    try control.resume()
    XCTAssertEqual(store.state, Relay.State(count: 1, arrived: ["b"]))
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from inspector: .plus
      end of step 1
      step 2 from inspector: .relay("b")
      end of step 2
      E1 started by step 2: run
      E1 finished
      step 3 from E1: .arrived("b")
      end of step 3
      """)
  }

  func testAJumpShowsTheRecordedStateHoldsActionsAndResumeReturnsToThePresent() async throws {
    let (store, control) = makeStore()
    store.send(.plus)
    store.send(.plus)
    store.send(.plus)
    let notified = Box(0)
    withObservationTracking { _ = store.count } onChange: {
      MainActor.assumeIsolated { notified.value += 1 }
    }
    // The state after step 1, as a recording holds it.
    XCTAssertEqual(try control.jump(to: Relay.State(count: 1), recordedStep: 1), 4)
    XCTAssertEqual(notified.value, 1)
    XCTAssertEqual(store.count, 1)
    store.send(.plus)
    XCTAssertEqual(store.count, 1)
    XCTAssertEqual(
      control.controlStatus,
      StoreControlStatus(
        lastStep: 4, isPaused: true, jumpedTo: 1, presentStep: 3, heldActions: 1))
    XCTAssertEqual(try control.jump(to: Relay.State(count: 2), recordedStep: 2), 5)
    XCTAssertEqual(store.count, 2)
    XCTAssertEqual(try control.resume(), 6)
    XCTAssertEqual(store.count, 4)
    XCTAssertEqual(
      control.controlStatus,
      StoreControlStatus(
        lastStep: 7, isPaused: false, jumpedTo: nil, presentStep: nil, heldActions: 0))
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .plus
      end of step 1
      step 2 from user: .plus
      end of step 2
      step 3 from user: .plus
      end of step 3
      step 4 by the inspector: jump to step 1, state State(count: 1, arrived: [])
      step 5 by the inspector: jump to step 2, state State(count: 2, arrived: [])
      step 6 by the inspector: jump to step 3, state State(count: 3, arrived: [])
      step 7 from user: .plus
      end of step 7
      """)
  }

  func testContinueFromHereCancelsTheAbandonedFutureAndDropsWhatItsEffectsSent() async throws {
    let (store, control) = makeStore()
    let kept = store.send(.relay("a"))  // step 1, E1: before the jump target, kept
    store.send(.plus)  // step 2: the jump target
    store.send(.relay("b"))  // step 3, E2: sends while paused, then finishes
    store.send(.relay("c"))  // step 4, E3: still running at the jump
    await waitForWaiters("a", "b", "c")
    control.pause()
    gates.open("b")
    let sent = await eventually { control.controlStatus.heldActions == 1 }
    XCTAssertTrue(sent)
    await waitForLine("E2 finished")
    store.send(.plus)  // held: a user's action survives the continue
    XCTAssertEqual(try control.jump(to: Relay.State(count: 1), recordedStep: 2), 5)
    transcript.clear()
    XCTAssertEqual(try control.continueFromHere(), 6)
    XCTAssertEqual(store.state, Relay.State(count: 2, arrived: []))
    gates.open("a")
    await kept.finish()
    XCTAssertEqual(store.state, Relay.State(count: 2, arrived: ["a"]))
    XCTAssertEqual(
      transcript.text,
      """
      step 6 by the inspector: continue from step 2, state State(count: 1, arrived: [])
      E3 cancelled in step 6: abandonedFuture
      step 7 from user: .plus
      end of step 7
      step 8 from E1: .arrived("a")
      end of step 8
      E1 finished
      """)
    XCTAssertEqual(control.controlStatus.isPaused, false)
  }

  func testAJumpToAStepMadeDuringAJumpContinuesFromWhatThatStepCameFrom() async throws {
    let (store, control) = makeStore()
    store.send(.plus)  // step 1
    let future = store.send(.relay("d"))  // step 2, E1: the future a jump to 1 abandons
    await waitForWaiters("d")
    _ = try control.jump(to: Relay.State(count: 1), recordedStep: 1)  // step 3
    _ = try control.sendFromInspector(.plus)  // step 4: count 2, descends from step 1
    _ = try control.jump(to: Relay.State(count: 0), recordedStep: 0)  // step 5
    _ = try control.jump(to: Relay.State(count: 2), recordedStep: 4)  // step 6
    transcript.clear()
    XCTAssertEqual(try control.continueFromHere(), 7)
    await future.finish()
    XCTAssertEqual(store.state, Relay.State(count: 2, arrived: []))
    XCTAssertEqual(
      transcript.text,
      """
      step 7 by the inspector: continue from step 4, state State(count: 2, arrived: [])
      E1 cancelled in step 7: abandonedFuture
      """)
  }

  func testContinueWithoutAJumpIsRefusedAndChangesNothing() throws {
    let (store, control) = makeStore()
    store.send(.plus)
    control.pause()
    XCTAssertThrowsError(try control.continueFromHere()) { error in
      XCTAssertEqual(error as? StoreControlError, .notJumped)
    }
    XCTAssertEqual(
      control.controlStatus,
      StoreControlStatus(
        lastStep: 1, isPaused: true, jumpedTo: nil, presentStep: nil, heldActions: 0))
  }

  func testAControlAskedFromInsideAReducerIsRefused() throws {
    let box = ControlBox()
    let store = Store(initialState: Relay.State()) {
      Reduce<Relay.State, Relay.Action> { _, _ in
        MainActor.assumeIsolated {
          box.outcome = Result { () throws(StoreControlError) in
            try box.control?.sendFromInspector(.plus) ?? 0
          }
        }
        return .none
      }
      .transcribed(into: transcript)
    }
    box.control = transcript.control as? any StoreControl<Relay.State, Relay.Action>
    store.send(.relay("x"))
    XCTAssertEqual(box.outcome.map { _ in "sent" }, .failure(.busy))
  }
}

/// A counter whose `relay` effect waits at a named gate, then sends `arrived`.
private struct Relay: Reducer {
  struct State: Equatable, Sendable, CustomStringConvertible {
    var count = 0
    var arrived: [String] = []

    var description: String { "State(count: \(count), arrived: \(arrived))" }
  }

  enum Action: Equatable, Sendable {
    case plus
    case relay(String)
    case arrived(String)
  }

  let gates: EffectGates

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .plus:
      state.count += 1
      return .none
    case .relay(let name):
      return .run { [gates] send in
        await gates.wait(name)
        await send(.arrived(name))
      }
    case .arrived(let name):
      state.arrived.append(name)
      return .none
    }
  }
}

@MainActor
private final class ControlBox {
  var control: (any StoreControl<Relay.State, Relay.Action>)?
  var outcome: Result<Int, StoreControlError> = .success(0)
}
