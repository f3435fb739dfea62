/// One case of an enum as a key path reaches it: the root and value type of case key paths.
///
/// `\Action.Cases.child` — or `\.child` where the type is known — is a key path from
/// `Case<Action>` to `Case<Child.Action>`, formed through the `AllCasePaths` member `child` of
/// a `CasePathable` enum; `\.child.grandchild` goes one case deeper. `AnyCasePath(_:)` turns it
/// into the case path it stands for.
///
/// ```swift
/// let path = AnyCasePath(\Parent.Action.Cases.child.increment)
/// path.embed(())  // Parent.Action.child(.increment)
/// ```
@dynamicMemberLookup
public struct Case<Value>: Sendable {
  /// The case path from the enum the key path started at down to here.
  let chain: any CaseChain<Value>

  /// The identity case, `\Action.Cases.self`: the whole value. Only the library makes one, so
  /// every chain starts at the enum the key path starts at.
  init() {
    chain = RootedCaseChain<Value, Value>(path: nil, members: [])
  }

  init(chain: any CaseChain<Value>) {
    self.chain = chain
  }

  /// The case `keyPath` names within this one (`\.child` of `Case<Parent.Action>`).
  public subscript<AppendedValue>(
    dynamicMember keyPath: KeyPath<Value.AllCasePaths, AnyCasePath<Value, AppendedValue>>
  ) -> Case<AppendedValue> where Value: CasePathable {
    Case<AppendedValue>(
      chain: chain.appending(Value.allCasePaths[keyPath: keyPath], member: keyPath))
  }
}

/// A case path from some root enum to `Value`, with the root type hidden: how `Case` composes
/// the cases a key path goes through without knowing where it started.
protocol CaseChain<Value>: Sendable {
  associatedtype Value

  /// The chain one case deeper: `next` is the case path of the `AllCasePaths` member `member`.
  func appending<AppendedValue>(
    _ next: AnyCasePath<Value, AppendedValue>, member: AnyKeyPath
  ) -> any CaseChain<AppendedValue>
}

/// A chain that starts at `Root`; `path` is `nil` while it is still the identity. `members` are
/// the key paths to the `AllCasePaths` members it went through, which are its identity.
struct RootedCaseChain<Root, Value>: CaseChain {
  let path: AnyCasePath<Root, Value>?
  let members: [SendableKeyPath]

  func appending<AppendedValue>(
    _ next: AnyCasePath<Value, AppendedValue>, member: AnyKeyPath
  ) -> any CaseChain<AppendedValue> {
    let members = members + [SendableKeyPath(member)]
    if let path {
      return RootedCaseChain<Root, AppendedValue>(path: path.appending(next), members: members)
    }
    // Still the identity: Value is Root, so the next case path starts at the root itself.
    return RootedCaseChain<Root, AppendedValue>(
      path: next as? AnyCasePath<Root, AppendedValue>, members: members)
  }
}
