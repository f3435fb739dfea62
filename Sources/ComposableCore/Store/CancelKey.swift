/// What the core files a cancellable effect under: a cancellation id at one prefix of the
/// navigation path it was made under (the whole path for the id itself).
///
/// As upstream, an effect is registered under each of its ids at every prefix of the id's
/// path, so that a parent's `.cancel(id:)` (an id made at a shorter path) finds a child's
/// effect in one look-up. A key is the id's kept parts and a length, so the prefixes cost no
/// new id (an `EffectCancelID.Parts` and its path for each), and an effect keeps no array of
/// its keys: they are made again from its ids when it ends. A key hashes and compares as the
/// id made at that prefix would: its id, and the first `length` steps of its path.
///
/// ```swift
/// // "timer" @ [presentation(sheet), forEach(rows)#7] is filed under:
/// CancelKey(timer)             // "timer" @ [presentation(sheet), forEach(rows)#7]
/// CancelKey(timer, length: 1)  // "timer" @ [presentation(sheet)]
/// CancelKey(timer, length: 0)  // "timer" @ []
/// ```
@usableFromInline
package struct CancelKey: KeptHashKey {
  @usableFromInline let parts: EffectCancelID.Parts
  /// How many steps of the id's path the key has.
  @usableFromInline let length: Int
  /// The hash of the id made at that prefix (`EffectCancelID.Parts.hash`), kept.
  @usableFromInline package let hash: Int

  /// The id at its whole path.
  @inlinable
  package init(_ id: EffectCancelID) {
    parts = id.parts
    length = parts.navigationIDPath.path.count
    hash = parts.hash
  }

  /// The id at the first `length` steps of its path (at most all of them).
  @inlinable
  package init(_ id: EffectCancelID, length: Int) {
    parts = id.parts
    self.length = length
    let path = parts.navigationIDPath.path
    if length == path.count {
      hash = parts.hash
    } else if length == 0 {
      // At the root: the id's own hash, kept (the prefix every effect with an id has).
      hash = parts.idHash
    } else {
      hash = EffectCancelID.Parts.pathHash(
        parts.idHash, length: length, lastStep: path[length - 1])
    }
  }

  /// Equal when the ids are and the paths' first `length` steps are.
  @inlinable
  package static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.length == rhs.length else { return false }
    if lhs.parts === rhs.parts { return true }
    guard lhs.hash == rhs.hash, lhs.parts.id == rhs.parts.id else { return false }
    let left = lhs.parts.navigationIDPath.path
    let right = rhs.parts.navigationIDPath.path
    var index = 0
    while index < lhs.length {
      guard left[index] == right[index] else { return false }
      index += 1
    }
    return true
  }
}
