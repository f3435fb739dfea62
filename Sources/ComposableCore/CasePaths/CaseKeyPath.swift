import Locking

/// A key path to a case of an enum: `\.child` for the case `child` of a `CasePathable` enum.
///
/// Operators that take a case path take a case key path too:
///
/// ```swift
/// Scope(state: \.child, action: \.child) { Child() }
/// store.scope(state: \.child, action: \.child)
/// ```
public typealias CaseKeyPath<Root, Value> = KeyPath<Case<Root>, Case<Value>>

extension AnyCasePath {
  /// The case path a case key path names.
  ///
  /// Its identity is the key path (`\.child` written twice names one case, so a scoped store
  /// made with it is cached) and its name the names of the cases on the way (`"child"`,
  /// `"destination.presented"`).
  ///
  /// ```swift
  /// let child = AnyCasePath(\Parent.Action.Cases.child)
  /// child.extract(.child(.increment))  // Optional(.increment)
  /// ```
  @inlinable
  public init(_ keyPath: CaseKeyPath<Root, Value>) {
    // Inlined so that the case path is copied out of its entry with its type known.
    if let entry = CaseKeyPathCache.entry(for: keyPath) {
      // Equal key paths have one class, `KeyPath<Case<Root>, Case<Value>>` or a subclass of
      // it, and every entry of that class was made by `add` for a `CaseKeyPath<Root, Value>`.
      self = unsafeDowncast(entry, to: CaseKeyPathCache.TypedEntry<Root, Value>.self).casePath
    } else {
      self = CaseKeyPathCache.add(keyPath)
    }
  }
}

extension KeyPath {
  /// Embeds a payload into the case this case key path names.
  ///
  /// ```swift
  /// let tap: Parent.Action = (\Parent.Action.Cases.child)(.increment)
  /// // Parent.Action.child(.increment)
  /// ```
  public func callAsFunction<Enum, AssociatedValue>(_ value: AssociatedValue) -> Enum
  where Root == Case<Enum>, Value == Case<AssociatedValue> {
    AnyCasePath<Enum, AssociatedValue>(self).embed(value)
  }

  /// The value of a case without a payload.
  ///
  /// ```swift
  /// let tap: Parent.Action = (\Parent.Action.Cases.tapped)()  // Parent.Action.tapped
  /// ```
  public func callAsFunction<Enum>() -> Enum
  where Root == Case<Enum>, Value == Case<Void> {
    AnyCasePath<Enum, Void>(self).embed(())
  }
}

/// The case paths made from case key paths, by key path.
///
/// Reducer bodies are rebuilt for every action, so `Scope(state: \.child, action: \.child)`
/// converts a newly formed key path on every action; walking the key path through `Case` builds
/// a chain of closures each time. The cache finds the case path with one key path comparison:
/// entries are kept by the key path's class (`KeyPath<Case<Root>, Case<Value>>`, which fixes
/// `Root` and `Value`), and the key paths of one class are compared with `==`. (Hashing a key
/// path walks its components and their arguments as `==` does: keyed by the whole key path,
/// a lookup walked it twice.)
///
/// A literal's subscript argument (`\AllCasePaths.child` in `\.child`) is made once for each
/// place the literal is compiled to, and `==` compares identical arguments without walking
/// them; so each entry keeps the last key path it was found with, and the next comparison
/// from the same place meets the same arguments. (A reducer's `body` is compiled both on its
/// own and inlined into the store that runs it.)
@usableFromInline
enum CaseKeyPathCache {
  /// The entries of each key path class, in the order they were made. Entries are only ever
  /// appended, so a list that still has the count a caller saw has not changed since.
  private static let storage = Lock<[ObjectIdentifier: [Entry]]>([:])

  /// The entry of a key path equal to `keyPath`, if there is one.
  @usableFromInline
  static func entry(for keyPath: AnyKeyPath) -> Entry? {
    let entries = storage.withLock { $0[ObjectIdentifier(type(of: keyPath))] ?? [] }
    return entries.first { $0.matches(keyPath) }
  }

  /// The case path of a key path `entry(for:)` did not find, made and added (unless another
  /// thread added it first).
  @usableFromInline
  static func add<Root, Value>(_ keyPath: CaseKeyPath<Root, Value>) -> AnyCasePath<Root, Value> {
    let keyPathClass = ObjectIdentifier(type(of: keyPath))
    var compared = 0
    while true {
      // Compared outside the lock: comparing key paths compares their subscript arguments,
      // which may be an identifier type's own `==`.
      let entries = storage.withLock { $0[keyPathClass] ?? [] }
      for entry in entries[compared...] where entry.matches(keyPath) {
        return unsafeDowncast(entry, to: TypedEntry<Root, Value>.self).casePath
      }
      compared = entries.count
      let casePath = make(keyPath)
      let added = storage.withLock { storage -> Bool in
        // Another thread added an entry of this class meanwhile: it may be this key path's.
        guard storage[keyPathClass, default: []].count == compared else { return false }
        storage[keyPathClass, default: []].append(
          TypedEntry(keyPath: SendableKeyPath(keyPath), casePath: casePath))
        return true
      }
      if added { return casePath }
    }
  }

  /// A case key path and the case path it names.
  @usableFromInline
  class Entry: @unchecked Sendable {
    // Unchecked: its state is behind a lock, and its one subclass only adds an immutable
    // `Sendable` value.
    /// The key path the entry was made or last found with.
    private let keyPath: Lock<SendableKeyPath>

    init(keyPath: SendableKeyPath) {
      self.keyPath = Lock(keyPath)
    }

    /// Whether `keyPath` is this entry's key path (equal to it); the entry then keeps it.
    func matches(_ keyPath: AnyKeyPath) -> Bool {
      let latest = self.keyPath.withLock { $0 }
      guard latest.keyPath == keyPath else { return false }
      if latest.keyPath !== keyPath {
        // The key path it replaces is returned and released after the lock: releasing a key
        // path releases its arguments, whose deinitializers are not ours to run under it.
        let replaced = self.keyPath.withLock { stored in
          defer { stored = SendableKeyPath(keyPath) }
          return stored
        }
        _ = replaced
      }
      return true
    }
  }

  @usableFromInline
  final class TypedEntry<Root, Value>: Entry, @unchecked Sendable {
    @usableFromInline let casePath: AnyCasePath<Root, Value>

    init(keyPath: SendableKeyPath, casePath: AnyCasePath<Root, Value>) {
      self.casePath = casePath
      super.init(keyPath: keyPath)
    }
  }

  private static func make<Root, Value>(
    _ keyPath: CaseKeyPath<Root, Value>
  ) -> AnyCasePath<Root, Value> {
    let chain = Case<Root>()[keyPath: keyPath].chain
    let id = CasePathID(keyPath: keyPath)
    if let rooted = chain as? RootedCaseChain<Root, Value> {
      if let path = rooted.path {
        return AnyCasePath(
          id: id, naming: path.naming.readFromCaseKeyPath, embed: path.embed,
          extract: path.extract)
      }
      // `\.self`: the identity.
      if let identity = AnyCasePath<Root, Root>.identity as? AnyCasePath<Root, Value> {
        return AnyCasePath(
          id: id, naming: .identity, embed: identity.embed, extract: identity.extract)
      }
    }
    // Every chain starts at the root of the key path: `Case.init()` is internal and appending
    // keeps the root, so a case key path cannot lead anywhere else.
    preconditionFailure("The case key path \(keyPath) does not start at \(Root.self).")
  }
}
