/// Optional state of a presented child feature (a sheet, an alert, a pushed screen).
///
/// ```swift
/// struct State {
///   @PresentationState var detail: Detail.State?
/// }
/// // in the body:
/// .ifLet(\.$detail, action: .detail) { Detail() }
/// ```
@propertyWrapper
public struct PresentationState<State> {
  /// The child's state, in a box shared by copies until one of them changes it (as upstream):
  /// `ifLet` reads the wrapper through `\.$detail`, a computed key path, on every action, and
  /// a copy of the wrapper is one retain, not one for each reference in the child's state.
  @usableFromInline var storage: Storage

  /// The box of a presentation's optional child state.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    // A copy of the wrapper shares the box, and a box is changed in place only while one
    // wrapper holds it (`isKnownUniquelyReferenced`): no access can overlap, so no dynamic
    // exclusivity check (it costs more than the read).
    @exclusivity(unchecked) @usableFromInline var state: State?

    @inlinable
    init(_ state: State?) {
      self.state = state
    }
  }

  /// The presented child's state, or `nil` when nothing is presented.
  @inlinable
  public var wrappedValue: State? {
    get { storage.state }
    set {
      if isKnownUniquelyReferenced(&storage) {
        storage.state = newValue
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) {
        storage = Storage(storage.state)
      }
      yield &storage.state
    }
  }

  /// Whether a child is presented, read in its box without copying its state out.
  @inlinable
  package var isPresented: Bool {
    if case .none = storage.state { return false }
    return true
  }

  /// Wraps optional child state.
  @inlinable
  public init(wrappedValue: State?) {
    storage = Storage(wrappedValue)
  }

  /// The wrapper itself (`\.$detail` is the key path `ifLet` takes).
  // Inlinable: `\.$child`, read on every action by `ifLet`, copies the wrapper through this
  // accessor; specialized, the copy is a retain instead of value-witness calls.
  @inlinable
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Calls `body` with the address of the optional child state, in its box (the trace's writer
  /// reads it in place).
  package func withWrappedValuePointer<R>(_ body: (UnsafeRawPointer) throws -> R) rethrows -> R {
    let storage = storage
    return try withUnsafeMutablePointer(to: &storage.state) { try body(UnsafeRawPointer($0)) }
  }
}

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: try container.decode(State?.self))
  }
}

/// The actions of a presented child: its own actions, or the request to dismiss it.
///
/// ```swift
/// enum Action { case detail(PresentationAction<Detail.Action>) }
/// store.send(.detail(.dismiss))   // the parent sees it, then detail state becomes nil and
///                                 // its effects are cancelled
/// ```
public enum PresentationAction<Action: Sendable>: Sendable {
  /// Dismisses the child: the parent sees this action with the child still present, then the
  /// child's state becomes `nil`.
  case dismiss
  /// An action of the presented child.
  case presented(Action)

  /// The case path to `.presented`.
  public static var presented: AnyCasePath<Self, Action> {
    AnyCasePath(
      name: "PresentationAction.presented",
      embed: { .presented($0) },
      extract: {
        if case let .presented(action) = $0 { action } else { nil }
      }
    )
  }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
// Synthesized, so traces name the cases as for any other enum: `sheet.presented.saveTapped`.
extension PresentationAction: Encodable where Action: Encodable {}
extension PresentationAction: Decodable where Action: Decodable {}

extension PresentationState: CustomReflectable {
  /// Reflects as the optional child state it wraps.
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue as Any)
  }
}

extension PresentationState: PropertyWrapperReflecting {
  package var reflectedWrappedValue: Any { wrappedValue as Any }
}

/// Marks property wrappers whose backing storage (`_name` in a mirror) should be shown under
/// the property's own name in dumps and diffs, and described by its wrapped value (the Swift
/// types a trace records).
package protocol PropertyWrapperReflecting {
  /// The wrapped value, as the property's own name stands for it.
  var reflectedWrappedValue: Any { get }
}
