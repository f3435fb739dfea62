/// A cancellation id as the core stores it: the user's id plus the navigation path that was in
/// force when the `.cancellable` or `.cancel` effect was created.
@usableFromInline
package struct EffectCancelID: Hashable, Sendable, CustomStringConvertible {
  /// The id given to `.cancellable(id:)` / `.cancel(id:)`, or a `NavigationID` for the
  /// wrappers that `ifLet`, `forEach` and presentation put around their child's effects.
  package var id: AnyHashableSendable
  /// Where the effect was created.
  package var navigationIDPath: NavigationIDPath

  @usableFromInline
  package init(id: AnyHashableSendable, navigationIDPath: NavigationIDPath) {
    self.id = id
    self.navigationIDPath = navigationIDPath
  }

  @usableFromInline package var description: String {
    navigationIDPath.isEmpty ? "\(id)" : "\(id) @ \(navigationIDPath)"
  }
}
