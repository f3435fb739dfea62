/// A cancellation id as the core stores it: the user's id plus the navigation path that was in
/// force when the `.cancellable` or `.cancel` effect was created.
///
/// Its hash is computed once, when it is made: the store looks an id up several times per
/// effect (cancel in flight, registration under each prefix of the path, removal), and hashing
/// the type-erased id and every step of the path each time was most of that cost.
@usableFromInline
package struct EffectCancelID: Hashable, Sendable, CustomStringConvertible {
  /// The id given to `.cancellable(id:)` / `.cancel(id:)`, or a `NavigationID` for the
  /// wrappers that `ifLet`, `forEach` and presentation put around their child's effects.
  @usableFromInline package let id: AnyHashableSendable
  /// Where the effect was created.
  @usableFromInline package let navigationIDPath: NavigationIDPath
  /// The hash of `id` and `navigationIDPath` (with this process's seed).
  @usableFromInline let hash: Int

  @usableFromInline
  package init(id: AnyHashableSendable, navigationIDPath: NavigationIDPath) {
    self.id = id
    self.navigationIDPath = navigationIDPath
    var hasher = Hasher()
    hasher.combine(id)
    hasher.combine(navigationIDPath)
    hash = hasher.finalize()
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.hash == rhs.hash && lhs.id == rhs.id && lhs.navigationIDPath == rhs.navigationIDPath
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  /// What a dictionary buckets the id by: the kept hash (already a `Hasher`'s output, so
  /// well mixed) with the table's seed folded in, instead of hashing it once more — a full
  /// `Hasher` round on every look-up, registration and removal of a running effect.
  @inlinable
  package func _rawHashValue(seed: Int) -> Int {
    hash ^ seed
  }

  /// This id under its whole navigation path (itself, its hash kept) and under each shorter
  /// prefix, longest first: the keys an effect or an operation is registered under, as
  /// upstream (a parent's `.cancel(id:)` reaches a child's effect, a sibling's does not).
  @inlinable
  var prefixes: [EffectCancelID] {
    var keys: [EffectCancelID] = []
    keys.reserveCapacity(navigationIDPath.path.count + 1)
    forEachPrefix { keys.append($0) }
    return keys
  }

  /// Calls `body` with each of `prefixes` in order, building no sequence and no array: the
  /// core registers every launched effect under them.
  @inlinable
  func forEachPrefix(_ body: (EffectCancelID) -> Void) {
    body(self)
    let path = navigationIDPath.path
    var length = path.count
    while length > 0 {
      length -= 1
      let prefix = NavigationIDPath(path: Array(path[..<length]))
      body(EffectCancelID(id: id, navigationIDPath: prefix))
    }
  }

  @usableFromInline package var description: String {
    navigationIDPath.isEmpty ? "\(id)" : "\(id) @ \(navigationIDPath)"
  }
}
