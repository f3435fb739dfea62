/// A cancellation id as the core stores it: the user's id plus the navigation path that was in
/// force when the `.cancellable` or `.cancel` effect was created.
///
/// Its hash is computed once, when it is made: the store looks an id up several times per
/// effect (cancel in flight, registration under each prefix of the path, removal), and hashing
/// the type-erased id and every step of the path each time was most of that cost.
///
/// Its parts are kept in one immutable box: the store copies an id into every table and list
/// that holds it, and a copy is then one retain (copying the type-erased id and the path went
/// through their value witnesses); and an id compared with a copy of itself (removing an ended
/// effect from the keys it was registered under) is equal without comparing the parts.
@usableFromInline
package struct EffectCancelID: KeptHashKey, Sendable, CustomStringConvertible {
  /// The parts, made once.
  @usableFromInline
  final class Parts: Sendable {
    @usableFromInline let id: AnyHashableSendable
    @usableFromInline let navigationIDPath: NavigationIDPath
    /// The hash of `id` alone: an id made from this one under a shorter path (a prefix the
    /// store registers an effect under) starts from it instead of hashing the type-erased id
    /// again through its existential.
    @usableFromInline let idHash: Int
    @usableFromInline let hash: Int

    /// Hashes the type-erased id once (the two initializers do not call each other: passing
    /// the id on copied and destroyed it through its existential's value witnesses).
    @usableFromInline
    init(id: AnyHashableSendable, navigationIDPath: NavigationIDPath) {
      let idHash = Self.idHash(of: id)
      self.id = id
      self.navigationIDPath = navigationIDPath
      self.idHash = idHash
      hash = Self.hash(idHash, navigationIDPath)
    }

    /// Parts whose `id` hashes to `idHash` (another id's, kept).
    @usableFromInline
    init(id: AnyHashableSendable, idHash: Int, navigationIDPath: NavigationIDPath) {
      self.id = id
      self.navigationIDPath = navigationIDPath
      self.idHash = idHash
      hash = Self.hash(idHash, navigationIDPath)
    }

    /// The hash of an id. A navigation step (the id presentation, `forEach` and `ifLet` give
    /// their child's effects, made on every presented action and every dismissal) is hashed
    /// by its kept parts, mixed (`NavigationID.stepHash`, which equal steps share), without a
    /// `Hasher` round through the existential (about 220 instructions more an id); any other id
    /// through a `Hasher`. Ids of different types are never equal, so each type may hash its
    /// own way.
    @usableFromInline
    static func idHash(of id: AnyHashableSendable) -> Int {
      if id.baseType == ObjectIdentifier(NavigationID.self) {
        func stepHash<T: Hashable & Sendable>(_ base: T) -> Int {
          // `T` is `NavigationID`: its type was checked above.
          unsafeBitCast(base, to: NavigationID.self).stepHash
        }
        return HashMixing.mix(Int(bitPattern: UInt(bitPattern: id.baseType)), stepHash(id.base))
      }
      var hasher = Hasher()
      hasher.combine(id)
      return hasher.finalize()
    }

    /// At the root, the id's own hash: the prefix every effect with an id is registered under
    /// then costs no hashing at all. Below it, the id's hash mixed with the path's length and its last step's `stepHash`, not
    /// every step: ids of one feature differ in their last steps (two rows, two sheets), and
    /// equal ones are compared whole anyway. Hashing the array copied each step out and in
    /// through value witnesses, and a `Hasher` round for the step cost more than the mix.
    @inline(__always)
    static func hash(_ idHash: Int, _ navigationIDPath: NavigationIDPath) -> Int {
      let path = navigationIDPath.path
      guard let last = path.last else { return idHash }
      return pathHash(idHash, length: path.count, lastStep: last)
    }

    /// The hash of an id (hashing to `idHash`) under a path of `length` steps ending with
    /// `last` (more than none): also what a `CancelKey` at a prefix of a longer path keeps.
    @inlinable
    static func pathHash(_ idHash: Int, length: Int, lastStep last: NavigationID) -> Int {
      HashMixing.mix(HashMixing.mix(idHash, length), last.stepHash)
    }
  }

  @usableFromInline let parts: Parts

  /// The id given to `.cancellable(id:)` / `.cancel(id:)`, or a `NavigationID` for the
  /// wrappers that `ifLet`, `forEach` and presentation put around their child's effects.
  @inlinable package var id: AnyHashableSendable { parts.id }
  /// Where the effect was created.
  @inlinable package var navigationIDPath: NavigationIDPath { parts.navigationIDPath }
  /// The hash of `id` and `navigationIDPath` (with this process's seed).
  @inlinable package var hash: Int { parts.hash }

  @usableFromInline
  package init(id: AnyHashableSendable, navigationIDPath: NavigationIDPath) {
    parts = Parts(id: id, navigationIDPath: navigationIDPath)
  }

  @inlinable
  init(parts: Parts) {
    self.parts = parts
  }

  @inlinable
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.parts === rhs.parts
      || (lhs.hash == rhs.hash && lhs.id == rhs.id
        && lhs.navigationIDPath == rhs.navigationIDPath)
  }

  /// This id under its whole navigation path (itself, its hash kept) and under each shorter
  /// prefix, longest first: the keys an operation run by `withTaskCancellation` is registered
  /// under, as upstream (a parent's `.cancel(id:)` reaches a child's, a sibling's does not).
  /// The core files effects under the same prefixes without making these ids (`CancelKey`).
  @inlinable
  var prefixes: [EffectCancelID] {
    var keys: [EffectCancelID] = []
    let path = navigationIDPath.path
    keys.reserveCapacity(path.count + 1)
    keys.append(self)
    var length = path.count
    while length > 0 {
      length -= 1
      let prefix = NavigationIDPath(path: Array(path[..<length]))
      keys.append(
        EffectCancelID(parts: Parts(id: id, idHash: parts.idHash, navigationIDPath: prefix)))
    }
    return keys
  }

  @usableFromInline package var description: String {
    navigationIDPath.isEmpty ? "\(id)" : "\(id) @ \(navigationIDPath)"
  }
}

extension EffectCancelID {
  /// The ids a `.cancellable`'s child runs under: `ids`, then `id`. The first and second ids
  /// (the common cases: an effect cancellable in a child a parent made cancellable, such as a
  /// presented feature's) make their array at its size in one step: `ids + [id]` allocated a
  /// one-element array as well, and copying a one-element array to append to it grew it
  /// through `_consumeAndCreateNew`. The store's launch and typed replay's plan both use it.
  @inlinable
  package static func nested(_ ids: [EffectCancelID], _ id: EffectCancelID) -> [EffectCancelID] {
    if ids.isEmpty { return [id] }
    if ids.count == 1 { return [ids[0], id] }
    var nested = ids
    nested.append(id)
    return nested
  }
}
