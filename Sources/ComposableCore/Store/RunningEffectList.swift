/// The effects a root core started and has not seen end, in the order they started: a list
/// linked through the records themselves (main actor only), so adding or removing one is a few
/// pointer writes. A dictionary keyed by effect id inserted into, probed and shifted its table
/// for every effect started and ended.
///
/// ```swift
/// var running = RunningEffectList()
/// running.append(a); running.append(b)
/// running.remove(a)  // true: b is left
/// running.remove(a)  // false: already ended
/// ```
@usableFromInline
struct RunningEffectList {
  /// The oldest effect; each record holds the next one.
  @usableFromInline var first: RunningEffect?
  /// The newest effect (held through the chain from `first`).
  @usableFromInline unowned(unsafe) var last: RunningEffect?

  @inlinable
  init() {}

  /// Adds an effect that just started, after the others.
  @inlinable
  mutating func append(_ effect: RunningEffect) {
    effect.isListed = true
    if let last {
      last.next = effect
      effect.previous = last
    } else {
      first = effect
    }
    last = effect
  }

  /// Removes an effect the core ends; false when it had already been removed.
  @inlinable
  @discardableResult
  mutating func remove(_ effect: RunningEffect) -> Bool {
    guard effect.isListed else { return false }
    effect.isListed = false
    let next = effect.next
    let previous = effect.previous
    if let previous {
      previous.next = next
    } else {
      first = next
    }
    if let next {
      next.previous = previous
    } else {
      last = previous
    }
    effect.next = nil
    effect.previous = nil
    return true
  }

  /// Every effect, in the order they started.
  @usableFromInline
  var all: [RunningEffect] {
    var effects: [RunningEffect] = []
    var effect = first
    while let current = effect {
      effects.append(current)
      effect = current.next
    }
    return effects
  }

  /// The effect with `id`, if it is running (a search: only an inspector's pause asks).
  func effect(_ id: EffectID) -> RunningEffect? {
    var effect = first
    while let current = effect {
      if current.id == id { return current }
      effect = current.next
    }
    return nil
  }

  /// Removes every effect (one by one: dropping the chain at once would free it recursively).
  @usableFromInline
  mutating func removeAll() {
    for effect in all {
      remove(effect)
    }
  }
}
