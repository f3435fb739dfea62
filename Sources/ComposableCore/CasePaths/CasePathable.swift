/// An enum whose cases can be named by case key paths: `\.child` where a case path is expected.
///
/// Swift macros are not available here, so the conformance is written by hand, once per enum,
/// in exactly the shape upstream's `@CasePathable` macro generates (copy it from there and drop
/// the module prefix):
///
/// ```swift
/// enum Action { case child(Child.Action), tapped }
///
/// extension Action: CasePathable {
///   struct AllCasePaths {
///     var child: AnyCasePath<Action, Child.Action> {
///       AnyCasePath(embed: Action.child) {
///         guard case let .child(value) = $0 else { return nil }
///         return value
///       }
///     }
///     var tapped: AnyCasePath<Action, Void> {
///       AnyCasePath(embed: { .tapped }) {
///         guard case .tapped = $0 else { return nil }
///         return ()
///       }
///     }
///   }
///   static var allCasePaths: AllCasePaths { AllCasePaths() }
/// }
///
/// Scope(state: \.child, action: \.child) { Child() }
/// Action.child(.increment)[case: \.child]  // Optional(.increment)
/// ```
///
/// Each member of `AllCasePaths` is named after its case, which is how the reducer tree and
/// cancellation labels learn the case's name.
public protocol CasePathable {
  /// The type holding a case path for every case, one property per case.
  associatedtype AllCasePaths
  /// The case paths of every case.
  static var allCasePaths: AllCasePaths { get }
}

extension CasePathable {
  /// The root of this enum's case key paths: `\Action.Cases.child`.
  public typealias Cases = Case<Self>

  /// The payload of a case, or `nil` when the value is another case.
  ///
  /// ```swift
  /// Action.child(.increment)[case: \.child]  // Optional(.increment)
  /// Action.tapped[case: \.child]              // nil
  /// ```
  public subscript<Value>(case keyPath: CaseKeyPath<Self, Value>) -> Value? {
    AnyCasePath(keyPath).extract(self)
  }

  /// Whether the value is in the case a case key path names.
  ///
  /// ```swift
  /// Action.tapped.is(\.tapped)  // true
  /// Action.tapped.is(\.child)   // false
  /// ```
  public func `is`<Value>(_ keyPath: CaseKeyPath<Self, Value>) -> Bool {
    self[case: keyPath] != nil
  }

  /// The payload of a case named by the case key path of one case (`\.child`): the overload
  /// Swift picks for such a key path (see `CaseMemberKeyPath`).
  public subscript<Value>(case member: CaseMemberKeyPath<Self, Value>) -> Value? {
    AnyCasePath(member).extract(self)
  }

  /// Whether the value is in the case the case key path of one case names (`\.child`): the
  /// overload Swift picks for such a key path (see `CaseMemberKeyPath`).
  public func `is`<Value>(_ member: CaseMemberKeyPath<Self, Value>) -> Bool {
    self[case: member] != nil
  }
}
