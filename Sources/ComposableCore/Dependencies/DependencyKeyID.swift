/// A dependency key's identity as the tables of dependency values hold it (the overrides of
/// `DependencyValues`, `PublishedValueCache`): its look-up folds the table's seed into the
/// identity's address (`HashMixing`) instead of running a `Hasher` round over it (about 50
/// instructions more on every dependency read).
///
/// ```swift
/// var values: [DependencyKeyID: Int] = [:]
/// values[DependencyKeyID(ObjectIdentifier(Int.self))] = 42
/// ```
@usableFromInline
struct DependencyKeyID: Hashable, Sendable {
  @usableFromInline let id: ObjectIdentifier

  @inlinable
  init(_ id: ObjectIdentifier) {
    self.id = id
  }

  @inlinable
  func _rawHashValue(seed: Int) -> Int {
    HashMixing.mix(Int(bitPattern: UInt(bitPattern: id)), seed)
  }
}
