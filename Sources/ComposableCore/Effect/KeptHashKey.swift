/// A dictionary key whose hash is computed once, when the key is made, and kept: a table
/// looking it up folds its seed into that hash instead of running a `Hasher` round over the
/// key's contents on every look-up, registration and removal. `EffectCancelID` and
/// `CancelKey` are such keys; each compares its contents in its own way.
///
/// ```swift
/// let id = EffectCancelID(id: AnyHashableSendable("timer"), navigationIDPath: NavigationIDPath())
/// id.hashValue == CancelKey(id).hashValue  // true
/// ```
@usableFromInline
package protocol KeptHashKey: Hashable {
  /// The key's hash, already a `Hasher`'s output or mixed (`HashMixing`), so well spread.
  var hash: Int { get }
}

extension KeptHashKey {
  @inlinable
  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  /// The kept hash with the table's seed folded in: no `Hasher` round.
  @inlinable
  package func _rawHashValue(seed: Int) -> Int {
    hash ^ seed
  }
}
