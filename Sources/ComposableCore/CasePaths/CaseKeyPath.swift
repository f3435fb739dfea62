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

/// A case key path to one case of a `CasePathable` enum, formed as the key path to its
/// `AllCasePaths` member: what `\.child` is where an operator takes one.
///
/// The operators that run per action or per view update and take a `CaseKeyPath` (`Scope`,
/// `ifLet`, `forEach`, `BindingReducer`, `Store.scope`, `[case:]`, `is`, `StackState`'s
/// `[id:case:]`) have an overload taking this, which Swift prefers for a key path of one case
/// (`\.child`); deeper ones (`\.destination.alert`) and `\.self` go through `Case`. Both name
/// the same case path (the same identity and name). The reason is speed: a reducer's `body` is
/// rebuilt for every action, and a key path through `Case`'s dynamic-member subscript has an
/// argument, so Swift makes the key path object anew at every evaluation (about 1.5 µs); a key
/// path to a property is made once per place it is written.
///
/// ```swift
/// Scope(state: \.child, action: \.child) { Child() }  // CaseMemberKeyPath<Action, Child.Action>
/// ```
public typealias CaseMemberKeyPath<Root: CasePathable, Value> =
  KeyPath<Root.AllCasePaths, AnyCasePath<Root, Value>>

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
      self = CaseKeyPathCache.add(keyPath) { CaseKeyPathCache.make(keyPath) }
    }
  }
}

extension AnyCasePath where Root: CasePathable {
  /// The case path a case key path to one `AllCasePaths` member names: the same case path as
  /// the `CaseKeyPath` `\.child` (see `CaseMemberKeyPath`).
  ///
  /// ```swift
  /// let child = AnyCasePath(\Parent.Action.AllCasePaths.child)
  /// child.name  // "child"
  /// ```
  @inlinable
  public init(_ member: CaseMemberKeyPath<Root, Value>) {
    if let entry = CaseKeyPathCache.entry(forMember: member) {
      // The class `KeyPath<Root.AllCasePaths, AnyCasePath<Root, Value>>` (or a subclass) fixes
      // `Root` and `Value`, and its entries were made by `add` for such key paths.
      self = unsafeDowncast(entry, to: CaseKeyPathCache.TypedEntry<Root, Value>.self).casePath
    } else {
      self = CaseKeyPathCache.add(member) { CaseKeyPathCache.make(member: member) }
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
/// a chain of closures each time. Entries are kept by the key path's class
/// (`KeyPath<Case<Root>, Case<Value>>` or `KeyPath<Root.AllCasePaths, AnyCasePath<Root, Value>>`,
/// each of which fixes `Root` and `Value`). While a class has at most `listed` entries, they
/// are compared with `==` one by one, which finds most key paths with one comparison; a class
/// with more (`\.rows[id: id]` for many ids) keeps them by the key path's hash value. (Hashing
/// a key path walks its components and arguments as `==` does, and costs about as much as one
/// comparison: about 1,400 instructions for `\.child` through `Case`.) A class keeps at most
/// `entriesPerClass` entries and starts again empty when it would have more: a case path made
/// again has the same identity, which is the key path's members, not the entry.
///
/// A key path to an `AllCasePaths` member is made once for each place it is written (see
/// `entry(forMember:)`). A literal's subscript argument (`\AllCasePaths.child` in `\.child`
/// through `Case`) is made once for each place the literal is compiled to, and `==` compares
/// identical arguments without walking them; so each entry keeps the last key path it was
/// found with, and the next comparison from the same place meets the same arguments. (A
/// reducer's `body` is compiled both on its own and inlined into the store that runs it.)
///
/// Key paths are hashed and compared outside the locks: both reach their subscript arguments,
/// which may be an identifier type's own `hash(into:)` and `==`; and what a lock's body
/// replaces is released after it, since releasing a key path releases those arguments.
@usableFromInline
package enum CaseKeyPathCache {
  /// The most entries one key path class keeps.
  package static let entriesPerClass = 1024
  /// The most entries a class compares one by one; with more, it keeps them by hash value.
  static let listed = 8

  /// The entries of each key path class.
  private static let storage = Lock<[ObjectIdentifier: ClassEntries]>([:])

  /// The entries of one key path class: in a list while there are at most `listed`, then by
  /// their key paths' hash values.
  struct ClassEntries: Sendable {
    var list: [Entry] = []
    var hashed: [Int: [Entry]]?
    var count = 0
    /// Changes whenever an entry is added or the entries are dropped, so what a caller read at
    /// the same version has not changed since.
    var version = 0

    /// Adds `entry`; when the class is full, its entries are dropped first and returned.
    mutating func add(_ entry: Entry) -> ClassEntries {
      var dropped = ClassEntries()
      if count == CaseKeyPathCache.entriesPerClass {
        swap(&dropped, &self)
        version = dropped.version
      }
      if hashed == nil, list.count < CaseKeyPathCache.listed {
        list.append(entry)
      } else {
        if hashed == nil {
          hashed = Dictionary(grouping: list, by: \.hash)
          list = []
        }
        hashed?[entry.hash, default: []].append(entry)
      }
      count += 1
      version += 1
      return dropped
    }
  }

  /// The entry of a key path equal to `keyPath`, if there is one.
  @usableFromInline
  static func entry(for keyPath: AnyKeyPath) -> Entry? {
    entry(for: keyPath, in: ObjectIdentifier(type(of: keyPath))).entry
  }

  /// The entry of a key path equal to `keyPath` among the entries of its class, and the
  /// version of the class it was looked for in.
  private static func entry(
    for keyPath: AnyKeyPath, in keyPathClass: ObjectIdentifier
  ) -> (entry: Entry?, version: Int) {
    let (list, isHashed, version) = storage.withLock { storage in
      let entries = storage[keyPathClass]
      return (entries?.list ?? [], entries?.hashed != nil, entries?.version ?? 0)
    }
    guard isHashed else { return (list.first { $0.matches(keyPath) }, version) }
    let hash = keyPath.hashValue
    let (bucket, bucketVersion) = storage.withLock { storage in
      (storage[keyPathClass]?.hashed?[hash] ?? [], storage[keyPathClass]?.version ?? 0)
    }
    // The class may have changed since it was first read (even been emptied into a list
    // again): a miss is answered for the older version, so that `add` looks again.
    return (bucket.first { $0.matches(keyPath) }, min(version, bucketVersion))
  }

  /// How many entries the class of `keyPath` keeps (for tests).
  package static func entryCount(forClassOf keyPath: AnyKeyPath) -> Int {
    storage.withLock { $0[ObjectIdentifier(type(of: keyPath))]?.count ?? 0 }
  }

  /// The entry of a key path to an `AllCasePaths` member: first by the key path object (one
  /// is made per place such a key path is written, so a body rebuilt per action meets the same
  /// one), then as `entry(for:)` finds it, which the object is then remembered to find.
  @usableFromInline
  static func entry(forMember keyPath: AnyKeyPath) -> Entry? {
    let member = SendableKeyPath(keyPath)
    if let entry = members.withLock({ $0.entry(for: member) }) { return entry }
    guard let entry = entry(for: keyPath) else { return nil }
    // The key path and entry a slot held are released after the lock.
    let replaced = members.withLock { $0.remember(entry, for: member) }
    _ = replaced
    return entry
  }

  /// The entries of recently converted key paths to `AllCasePaths` members, by key path object.
  private static let members = Lock(MemberSlots())

  /// A table of 64 slots, each holding a key path object and its entry, the slot chosen by the
  /// object's address. A slot keeps its key path alive, so no other key path can be made at its
  /// address while it is there.
  struct MemberSlots: ~Copyable {
    private var slots: [(keyPath: SendableKeyPath, entry: Entry)?] =
      Array(repeating: nil, count: 64)

    func entry(for keyPath: SendableKeyPath) -> Entry? {
      guard let held = slots[Self.slot(of: keyPath)], held.keyPath.keyPath === keyPath.keyPath
      else { return nil }
      return held.entry
    }

    /// Puts `entry` in `keyPath`'s slot; returns what the slot held.
    mutating func remember(
      _ entry: Entry, for keyPath: SendableKeyPath
    ) -> (keyPath: SendableKeyPath, entry: Entry)? {
      let slot = Self.slot(of: keyPath)
      defer { slots[slot] = (keyPath, entry) }
      return slots[slot]
    }

    private static func slot(of keyPath: SendableKeyPath) -> Int {
      // Objects are at least 16-byte aligned: the bits above the alignment, folded.
      let address = UInt(bitPattern: Unmanaged.passUnretained(keyPath.keyPath).toOpaque())
      return Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10)) & 63
    }
  }

  /// The case path of a key path `entry(for:)` did not find, made and added (unless another
  /// thread added it first).
  @usableFromInline
  static func add<Root, Value>(
    _ keyPath: AnyKeyPath, make: () -> AnyCasePath<Root, Value>
  ) -> AnyCasePath<Root, Value> {
    let keyPathClass = ObjectIdentifier(type(of: keyPath))
    while true {
      let (found, version) = entry(for: keyPath, in: keyPathClass)
      if let found {
        return unsafeDowncast(found, to: TypedEntry<Root, Value>.self).casePath
      }
      let casePath = make()
      let entry = TypedEntry(
        keyPath: SendableKeyPath(keyPath), hash: keyPath.hashValue, casePath: casePath)
      let dropped = storage.withLock { storage -> ClassEntries? in
        // Another thread changed this class meanwhile: it may have added this key path.
        guard (storage[keyPathClass]?.version ?? 0) == version else { return nil }
        return storage[keyPathClass, default: ClassEntries()].add(entry)
      }
      if dropped != nil { return casePath }
    }
  }

  /// A case key path and the case path it names.
  @usableFromInline
  class Entry: @unchecked Sendable {
    // Unchecked: its state is behind a lock, and its one subclass only adds an immutable
    // `Sendable` value.
    /// The key path the entry was made or last found with.
    private let keyPath: Lock<SendableKeyPath>
    /// The key path's hash value.
    let hash: Int

    init(keyPath: SendableKeyPath, hash: Int) {
      self.keyPath = Lock(keyPath)
      self.hash = hash
    }

    /// Whether `keyPath` is this entry's key path (equal to it); the entry then keeps it.
    func matches(_ keyPath: AnyKeyPath) -> Bool {
      let latest = self.keyPath.withLock { $0 }
      guard latest.keyPath == keyPath else { return false }
      if latest.keyPath !== keyPath {
        // The key path it replaces is released after the lock.
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

    init(keyPath: SendableKeyPath, hash: Int, casePath: AnyCasePath<Root, Value>) {
      self.casePath = casePath
      super.init(keyPath: keyPath, hash: hash)
    }
  }

  /// The case path of a key path through `Case`.
  @usableFromInline
  static func make<Root, Value>(_ keyPath: CaseKeyPath<Root, Value>) -> AnyCasePath<Root, Value> {
    let chain = Case<Root>()[keyPath: keyPath].chain
    if let rooted = chain as? RootedCaseChain<Root, Value> {
      let id = CasePathID(caseKeyPathFrom: Root.self, through: rooted.members)
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

  /// The case path of a key path to an `AllCasePaths` member.
  @usableFromInline
  static func make<Root: CasePathable, Value>(
    member: CaseMemberKeyPath<Root, Value>
  ) -> AnyCasePath<Root, Value> {
    let path = Root.allCasePaths[keyPath: member]
    return AnyCasePath(
      id: CasePathID(caseKeyPathFrom: Root.self, through: [SendableKeyPath(member)]),
      naming: path.naming.readFromCaseKeyPath, embed: path.embed, extract: path.extract)
  }
}
