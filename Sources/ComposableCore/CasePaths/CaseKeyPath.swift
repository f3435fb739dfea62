import Synchronization

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
  public init(_ keyPath: CaseKeyPath<Root, Value>) {
    self = CaseKeyPathCache.casePath(for: keyPath)
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
/// converts its key path on every action; walking the key path through `Case` builds a chain
/// of closures each time. The cache makes that one dictionary lookup.
enum CaseKeyPathCache {
  private static let storage = Mutex<[SendableKeyPath: any Sendable]>([:])

  static func casePath<Root, Value>(
    for keyPath: CaseKeyPath<Root, Value>
  ) -> AnyCasePath<Root, Value> {
    let key = SendableKeyPath(keyPath)
    if let cached = storage.withLock({ $0[key] }) as? AnyCasePath<Root, Value> {
      return cached
    }
    let casePath = make(keyPath)
    storage.withLock { $0[key] = casePath }
    return casePath
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
