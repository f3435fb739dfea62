/// Owns the store's state in place.
///
/// The reducer mutates the state through this pointer, with no second copy alive: holding the
/// previous state while the reducer runs would force a copy-on-write of every collection the
/// reducer touches. Reading the state while a reducer runs (a reducer that reads its own store)
/// sees the state as mutated so far instead of tripping exclusivity checks.
@usableFromInline
final class StateStorage<State> {
  @usableFromInline let pointer: UnsafeMutablePointer<State>
  private var isDestroyed = false

  init(_ state: State) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: state)
  }

  /// Destroys the state now (a store going away destroys its state before it cancels its
  /// effects); nothing may read it afterwards.
  func destroy() {
    guard !isDestroyed else { return }
    isDestroyed = true
    pointer.deinitialize(count: 1)
  }

  deinit {
    destroy()
    pointer.deallocate()
  }
}
