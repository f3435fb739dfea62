/// An action in a box: boxed once per step that starts effects and shared by them, so that
/// each effect's bookkeeping holds one reference instead of a copy of the action.
@usableFromInline
final class BoxedAction<Action: Sendable>: Sendable {
  @usableFromInline let action: Action

  @inlinable
  init(_ action: consuming Action) {
    self.action = action
  }
}
