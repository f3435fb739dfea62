/// A form field's new value, as an action: "set the state at this key path to this value".
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveTapped
/// }
/// store.send(.binding(.set(\.name, "Blob")))
///
/// // In the reducer, after `BindingReducer()` applied it:
/// case .binding(\.name):
///   state.nameIsValid = !state.name.isEmpty
///   return .none
/// ```
public struct BindingAction<Root>: Equatable, @unchecked Sendable {
  /// The key path of the field that changed.
  public let keyPath: PartialKeyPath<Root>
  // `@unchecked Sendable`: the key path is immutable, the value is `Sendable` (required by
  // `set`), and the closures capture only those two.
  let set: @Sendable (inout Root) -> Void
  package let value: any Sendable
  let valueIsEqualTo: @Sendable (Any) -> Bool

  /// The action that sets the field at `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>,
    _ value: Value
  ) -> Self {
    let box = KeyPathBox(keyPath: keyPath)
    return BindingAction(
      keyPath: keyPath,
      set: { $0[keyPath: box.keyPath] = value },
      value: value,
      valueIsEqualTo: { ($0 as? Value) == value }
    )
  }

  /// Whether the action sets the field at `keyPath` (`case .binding(\.name):`).
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.valueIsEqualTo(rhs.value)
  }

  /// Applies the action to a state.
  public func apply(to root: inout Root) {
    set(&root)
  }

  /// Holds a key path inside the `@Sendable` setter (key paths are immutable).
  private struct KeyPathBox<Value>: @unchecked Sendable {
    let keyPath: WritableKeyPath<Root, Value>
  }
}

extension BindingAction: CustomReflectable {
  /// Reflects as the case `.set(keyPath, value)`: dumps and diffs show
  /// `.set(\State.name, "Blob")`.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["set": (keyPath as AnyKeyPath, value)],
      displayStyle: .enum
    )
  }
}

extension BindingAction: CustomStringConvertible {
  /// `.set(\State.name, "Blob")`.
  public var description: String {
    ".set(\(keyPath), \(String(reflecting: value)))"
  }
}

extension BindingAction: Encodable {
  /// Encodes as `{"set": {"keyPath": "\\State.name", "value": …}}`, so a trace records which
  /// field changed and to what (a value that is not `Encodable` is recorded as its text). It
  /// does not decode: a key path cannot be read back from its text, so typed replay of a
  /// feature with bindings is not available.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var set = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .set)
    try set.encode(String(describing: keyPath), forKey: .keyPath)
    if let encodable = value as? any Encodable {
      try set.encode(encodable, forKey: .value)
    } else {
      try set.encode(String(reflecting: value), forKey: .value)
    }
  }

  private enum CodingKeys: String, CodingKey {
    case set, keyPath, value
  }
}

extension BindingAction: CasePathable {
  /// The case paths of a binding action, one per field: `\.binding.name` names the actions
  /// that set `name`.
  ///
  /// ```swift
  /// await store.send(\.binding.name, "Blob") { $0.name = "Blob" }
  /// ```
  @dynamicMemberLookup
  public struct AllCasePaths {
    /// The case path to the actions that set the field at `keyPath`.
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value>
    ) -> AnyCasePath<BindingAction, Value> {
      let box = KeyPathBox(keyPath: keyPath)
      return AnyCasePath(
        name: fieldName(keyPath),
        embed: { .set(box.keyPath, $0) },
        extract: { $0.keyPath == box.keyPath ? $0.value as? Value : nil }
      )
    }
  }

  /// The case paths of every field.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// `name` for `\State.name`: the key path without its root type (Swift prints the root's name
/// first).
private func fieldName(_ keyPath: AnyKeyPath) -> String {
  let text = String(describing: keyPath)
  let root = "\\" + String(describing: type(of: keyPath).rootType) + "."
  return text.hasPrefix(root) ? String(text.dropFirst(root.count)) : text
}

/// An action enum with a case for form fields: `case binding(BindingAction<State>)`.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
/// }
/// ```
public protocol BindableAction {
  /// The state the bindings set.
  associatedtype State
  /// The action of a binding (the enum's `binding` case).
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action this action carries, if it is the `binding` case.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The binding action this action carries, found by reflection. Declare the property in
  /// the enum to avoid the reflection on every action:
  /// `var binding: BindingAction<State>? { if case let .binding(a) = self { a } else { nil } }`.
  public var binding: BindingAction<State>? {
    let child = Mirror(reflecting: self).children.first
    guard child?.label == "binding" else { return nil }
    return child?.value as? BindingAction<State>
  }

  /// The action that sets the field at `keyPath` to `value`: `.set(\.name, "Blob")`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}
