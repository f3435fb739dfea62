/// The effects registered under one cancellation key, in the order they started, each once.
///
/// The first is kept inline: a key mostly holds one effect (cancel in flight replaces it), and
/// the array allocated for it and freed with it was a third of registering and unregistering
/// an effect under a key. The effects are the core's records themselves, so cancelling them
/// looks none of them up by id.
///
/// ```swift
/// var effects = KeyedEffects(a)
/// effects.add(b); effects.add(a)  // a, b
/// effects.remove(a)               // false: b is left
/// ```
@usableFromInline
struct KeyedEffects {
  @usableFromInline var first: RunningEffect
  @usableFromInline var rest: [RunningEffect]

  @inlinable
  init(_ first: RunningEffect) {
    self.first = first
    rest = []
  }

  /// Every effect, in order.
  @inlinable
  var all: [RunningEffect] {
    [first] + rest
  }

  /// Adds an effect once (an effect inside two `.cancellable`s with the same id is registered
  /// once).
  @inlinable
  mutating func add(_ effect: RunningEffect) {
    if first === effect || rest.contains(where: { $0 === effect }) { return }
    rest.append(effect)
  }

  /// Removes an effect; returns whether none is left.
  @inlinable
  mutating func remove(_ effect: RunningEffect) -> Bool {
    if first === effect {
      if rest.isEmpty { return true }
      first = rest.removeFirst()
    } else if let position = rest.firstIndex(where: { $0 === effect }) {
      rest.remove(at: position)
    }
    return false
  }
}
