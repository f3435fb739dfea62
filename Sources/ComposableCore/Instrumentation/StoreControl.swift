/// What an instrument may do to the store it instruments: the core's side of live attach.
///
/// A root core hands its instrument this control once, when the store is created
/// (`StoreInstrument.storeControlled(by:)`). It is the only way into a running store besides
/// `send`, and it is not public API: the Recorder's live server uses it for an attached
/// inspector.
///
/// ```swift
/// control.pause()                           // user and effect actions are held, in order
/// try control.jump(to: stateAfter12, recordedStep: 12)  // step 40: jump to step 12
/// try control.resume()                      // step 41: jump to step 39; held actions reduced
/// ```
///
/// - While paused, actions sent from outside the store, from observers and from effects are
///   held, not reduced; an inspector's `send` is reduced at once.
/// - A jump pauses the store and replaces its state; the state it left is kept as the present.
/// - `resume` returns to the present state (a step of its own), then reduces what was held,
///   in order, each action with the origin it was sent from.
/// - `continueFromHere` keeps the jumped state, cancels the effects started by the steps after
///   the one it jumped to (up to the present it left), drops the held actions those effects
///   sent, and reduces the rest.
///
/// Every change to the state is a numbered step that the instrument is told about
/// (`inspectorStep`), so a recording of the store stays replayable.
@MainActor
@usableFromInline
package protocol StoreControl<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// Where the store is: its last step, whether it holds actions, where it jumped.
  var controlStatus: StoreControlStatus { get }
  /// Holds every action not sent by the inspector from now on; false when already paused.
  @discardableResult
  func pause() -> Bool
  /// Replaces the state with `state`, the recorded state after step `recordedStep`, and
  /// pauses. Returns the number of the jump's step.
  func jump(to state: State, recordedStep: Int) throws(StoreControlError) -> Int
  /// Returns to the present state if the store jumped, then reduces the held actions.
  /// Returns the number of the return's step, if there was one.
  @discardableResult
  func resume() throws(StoreControlError) -> Int?
  /// Goes on from the jumped state (see the type's documentation). Returns the step's number.
  func continueFromHere() throws(StoreControlError) -> Int
  /// Reduces `action` now, as sent by the inspector (origin `inspector`), paused or not.
  /// Returns the number of its step.
  func sendFromInspector(_ action: Action) throws(StoreControlError) -> Int
}

/// Where a controlled store is.
///
/// ```swift
/// control.controlStatus
/// // StoreControlStatus(lastStep: 40, isPaused: true, jumpedTo: 12, presentStep: 39,
/// //                    heldActions: 2)
/// ```
@usableFromInline
package struct StoreControlStatus: Sendable, Hashable {
  /// The number of the last step.
  package var lastStep: Int
  /// Whether actions from outside the inspector are held.
  package var isPaused: Bool
  /// The recorded step whose state the store shows after a jump (nil: the present).
  package var jumpedTo: Int?
  /// The last step before the first jump: the present that `resume` returns to.
  package var presentStep: Int?
  /// How many actions are held.
  package var heldActions: Int

  package init(
    lastStep: Int, isPaused: Bool, jumpedTo: Int?, presentStep: Int?, heldActions: Int
  ) {
    self.lastStep = lastStep
    self.isPaused = isPaused
    self.jumpedTo = jumpedTo
    self.presentStep = presentStep
    self.heldActions = heldActions
  }
}

/// Why a store refused what its control asked.
@usableFromInline
package enum StoreControlError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `continueFromHere` without a jump.
  case notJumped
  /// Asked while the store was reducing (from inside a reducer or an observer's callback).
  case busy
  /// The store is gone.
  case storeGone

  @usableFromInline package var description: String {
    switch self {
    case .notJumped: "the store has not jumped: there is no jumped state to continue from"
    case .busy: "the store is reducing an action; ask again after it"
    case .storeGone: "the store is gone"
    }
  }
}
