import Synchronization

/// An effect task a root core started and has not seen end, with what cancelling or ending it
/// needs, and the life of its task (running, cancelled, or completed), which the task reads
/// and marks off the main actor.
///
/// A class, not generic over the action (the action is boxed, see `BoxedAction`): taking one
/// out of the core's table, handing it on and dropping it are a retain or a release. As a value
/// holding the action (or even without it), each removal from the table went through
/// `Optional`'s value witnesses to destroy it (hundreds of instructions per cancellation).
///
/// The core makes it before the task, which captures it as its flag: one object an effect, not
/// a record and a flag. The task holds it until the task ends, so what it holds besides the
/// flag (its ids, the action) is let go of when the core ends the effect (`letGo()`), not when
/// the task gets to run. Off the main actor only `state` (atomic) is touched; everything else
/// is set and read on the main actor.
@usableFromInline
final class RunningEffect: @unchecked Sendable {
  @usableFromInline let id: EffectID
  /// The task, set as soon as it is created (nil only until then).
  @exclusivity(unchecked) @usableFromInline var task: Task<Void, Never>?
  /// 0 running, 1 cancelled, 2 completed.
  @usableFromInline let state = Atomic<UInt8>(0)
  /// The cancellation ids it was started under, outermost first (empty once the effect
  /// ended): it is registered under each of them at each prefix of its path (`CancelKey`).
  @exclusivity(unchecked) @usableFromInline var cancelIDs: [EffectCancelID]
  /// The action whose reducer returned it: a `BoxedAction` of the core's action type (nil once
  /// the effect ended).
  @exclusivity(unchecked) @usableFromInline var action: AnyObject?
  @usableFromInline let parent: EffectID?
  @usableFromInline let group: EffectTaskGroup
  /// The order it started in.
  @usableFromInline let launch: Int
  /// The step whose reducer returned it (0 when not instrumented).
  @usableFromInline let step: Int
  /// Whether it is in the core's list of running effects (the core has not ended it).
  @exclusivity(unchecked) @usableFromInline var isListed = false
  /// The effect started after it that is still in the list (see `RunningEffectList`).
  @exclusivity(unchecked) @usableFromInline var next: RunningEffect?
  /// The effect started before it that is still in the list (held by the list).
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var previous: RunningEffect?

  @inlinable
  init(
    id: EffectID, cancelIDs: [EffectCancelID], action: AnyObject?, parent: EffectID?,
    group: EffectTaskGroup, launch: Int, step: Int
  ) {
    self.id = id
    self.cancelIDs = cancelIDs
    self.action = action
    self.parent = parent
    self.group = group
    self.launch = launch
    self.step = step
  }

  @inlinable var isCancelled: Bool { state.load(ordering: .acquiring) == 1 }
  @inlinable var isCompleted: Bool { state.load(ordering: .acquiring) == 2 }

  /// Marks a running effect cancelled; false when it had already completed.
  @inlinable
  @discardableResult
  func cancel() -> Bool {
    state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
  }

  /// Marks a running effect completed (its operation returned); nothing if it was cancelled.
  @inlinable
  func complete() {
    _ = state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing)
  }

  /// Lets go of the ids and the action once the core ended the effect (taken out of its
  /// tables): they are freed now, as they were when the record was freed with the tables'
  /// hold on it, not when the task that still holds the record gets to run.
  @inlinable
  func letGo() {
    cancelIDs = []
    action = nil
  }
}
