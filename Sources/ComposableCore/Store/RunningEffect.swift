/// An effect task a root core started and has not seen end, with what cancelling or ending it
/// needs.
///
/// A class, not generic over the action (the action is boxed, see `BoxedAction`): taking one
/// out of the core's table, handing it on and dropping it are a retain or a release. As a value
/// holding the action (or even without it), each removal from the table went through
/// `Optional`'s value witnesses to destroy it (hundreds of instructions per cancellation).
@usableFromInline
final class RunningEffect {
  @usableFromInline let id: EffectID
  @usableFromInline let task: Task<Void, Never>
  @usableFromInline let flag: EffectFlag
  /// Every key the effect is registered under: each cancellation id at each prefix of its
  /// navigation path.
  @usableFromInline let cancelKeys: [EffectCancelID]
  /// The action whose reducer returned it: a `BoxedAction` of the core's action type.
  @usableFromInline let action: AnyObject?
  @usableFromInline let parent: EffectID?
  @usableFromInline let group: EffectTaskGroup
  /// The order it started in.
  @usableFromInline let launch: Int
  /// The step whose reducer returned it (0 when not instrumented).
  @usableFromInline let step: Int

  @inlinable
  init(
    id: EffectID, task: Task<Void, Never>, flag: EffectFlag, cancelKeys: [EffectCancelID],
    action: AnyObject?, parent: EffectID?, group: EffectTaskGroup, launch: Int, step: Int
  ) {
    self.id = id
    self.task = task
    self.flag = flag
    self.cancelKeys = cancelKeys
    self.action = action
    self.parent = parent
    self.group = group
    self.launch = launch
    self.step = step
  }
}
