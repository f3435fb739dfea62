/// A core that can tell how many of its effect tasks are still doing something of their own
/// (see `RootCore.pendingOperationCount`): what `Store.waitForIdleEffects(on:)` compares with
/// the sleepers of a test clock.
@MainActor
package protocol PendingOperationCounting: AnyObject {
  /// The effect tasks that have not returned and wait on no other effect task.
  var pendingOperationCount: Int { get }
}

extension RootCore: PendingOperationCounting {}
