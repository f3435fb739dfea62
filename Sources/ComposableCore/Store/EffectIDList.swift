/// The effects registered under one cancellation key, in the order they started, each once.
///
/// The first is kept inline: a key mostly holds one effect (cancel in flight replaces it), and
/// the array allocated for it and freed with it was a third of registering and unregistering
/// an effect under a key.
///
/// ```swift
/// var list = EffectIDList(a)
/// list.add(b); list.add(a)  // a, b
/// list.remove(a)            // false: b is left
/// ```
@usableFromInline
struct EffectIDList {
  @usableFromInline var first: EffectID
  @usableFromInline var rest: [EffectID]

  @inlinable
  init(_ first: EffectID) {
    self.first = first
    rest = []
  }

  /// Every effect, in order.
  @inlinable
  var all: [EffectID] {
    [first] + rest
  }

  /// Adds an effect once (an effect inside two `.cancellable`s with the same id is registered
  /// once).
  @inlinable
  mutating func add(_ id: EffectID) {
    if first == id || rest.contains(id) { return }
    rest.append(id)
  }

  /// Removes an effect; returns whether none is left.
  @inlinable
  mutating func remove(_ id: EffectID) -> Bool {
    if first == id {
      if rest.isEmpty { return true }
      first = rest.removeFirst()
    } else if let position = rest.firstIndex(of: id) {
      rest.remove(at: position)
    }
    return false
  }
}
