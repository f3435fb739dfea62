/// Where in the feature tree a reducer runs: the chain of `ifLet` / `forEach` /
/// presentation children between the root and it.
///
/// Cancellation ids are stored together with the path in force when the effect was created,
/// so two `forEach` rows that both use `.cancellable(id: "timer")` do not cancel each other;
/// the store registers each effect under every prefix of that path too, so a parent's
/// `.cancel(id: "timer")` reaches the rows' timers.
///
/// ```swift
/// // Inside the row with id 7 of `forEach(\.rows, …)`:
/// // .cancellable(id: "timer") is stored as "timer" @ [forEach(rows)#7]
/// ```
public struct NavigationIDPath: Hashable, Sendable, CustomStringConvertible {
  /// The steps from the root, outermost first.
  @usableFromInline package var path: [NavigationID]

  /// The root: no navigation steps.
  public init() {
    path = []
  }

  @usableFromInline
  package init(path: [NavigationID]) {
    self.path = path
  }

  /// A path one step deeper (built on every row and presented action: appended to a copy,
  /// where `path + [id]` went through the generic `append(contentsOf:)`).
  @usableFromInline
  package func appending(_ id: NavigationID) -> NavigationIDPath {
    // A child of the root (the common case): one exact allocation, no copy to grow.
    if path.isEmpty { return NavigationIDPath(path: [id]) }
    var path = path
    path.append(id)
    return NavigationIDPath(path: path)
  }

  /// Whether the path has no steps.
  package var isEmpty: Bool { path.isEmpty }

  /// Whether a step is a presented destination or a stack element (what `dismiss` dismisses).
  package var isPresented: Bool {
    path.contains { $0.kind == .presentation || $0.kind == .stack }
  }

  /// This path and every shorter one down to the root, longest first: the paths an effect
  /// created here is registered under.
  package var prefixes: [NavigationIDPath] {
    (0...path.count).map { dropped in NavigationIDPath(path: Array(path.dropLast(dropped))) }
  }

  public var description: String {
    "[" + path.map(\.description).joined(separator: ", ") + "]"
  }
}

/// One step of a `NavigationIDPath`: which operator made it, which child it leads to.
///
/// Its description names the child the way the source does, the same in every run:
/// `presentation(detail)`, `forEach(rows)#7`, `ifLet(child)` (see `ReducerLabel`).
@usableFromInline
package struct NavigationID: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  package enum Kind: String, Hashable, Sendable {
    case ifLet
    case forEach
    case presentation
    case stack

    /// The case as a number: what the step's hash and equality use.
    @inlinable var ordinal: UInt8 {
      switch self {
      case .ifLet: 0
      case .forEach: 1
      case .presentation: 2
      case .stack: 3
      }
    }

    /// Hashes the case, not the raw value: `RawRepresentable`'s default hashes the name as a
    /// `String` (about 250 instructions on every cancellation id made under a step).
    @inlinable
    package func hash(into hasher: inout Hasher) {
      hasher.combine(ordinal)
    }

    @inlinable
    package static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.ordinal == rhs.ordinal
    }
  }

  /// The step's parts, in one immutable box. A step is copied into every path below it and
  /// wrapped as the cancellation id of its child's effects (an existential, where a value
  /// larger than three words is put in a box of its own); with the parts inline, each copy
  /// and destruction went through the value witnesses of its existentials.
  @usableFromInline
  final class Parts: Sendable {
    @usableFromInline let kind: Kind
    @usableFromInline let keyPath: AnyKeyPath & Sendable
    @usableFromInline let elementID: AnyHashableSendable?
    @usableFromInline let label: ReducerLabel

    @inlinable
    init(
      kind: Kind, keyPath: AnyKeyPath & Sendable, elementID: consuming AnyHashableSendable?,
      label: consuming ReducerLabel
    ) {
      self.kind = kind
      self.keyPath = keyPath
      self.elementID = elementID
      self.label = label
    }
  }

  @usableFromInline let parts: Parts

  /// The operator that made the step.
  @inlinable package var kind: Kind { parts.kind }
  /// The child state's key path from its parent: the step's identity.
  @inlinable package var keyPath: AnyKeyPath & Sendable { parts.keyPath }
  /// The element id for `forEach` and stack elements; `nil` for single children.
  @inlinable package var elementID: AnyHashableSendable? { parts.elementID }
  /// How the step is named (not part of its identity).
  @inlinable package var label: ReducerLabel { parts.label }

  /// Inlinable: built on every child action, where the label is given (out of line, its
  /// optional label and existentials were copied through value witnesses, ~600 instructions).
  @inlinable
  package init(
    kind: Kind, keyPath: AnyKeyPath & Sendable, elementID: AnyHashableSendable? = nil,
    label: ReducerLabel? = nil
  ) {
    parts = Parts(
      kind: kind, keyPath: keyPath, elementID: elementID,
      label: label ?? ReducerLabel(keyPath: keyPath))
  }

  /// A step whose label is given (what `forEach` and presentation build on every child
  /// action): its parts are moved into the box, where the optional label's `??` copied it
  /// and the element id through their value witnesses.
  @inlinable
  package init(
    kind: Kind, keyPath: AnyKeyPath & Sendable, elementID: consuming AnyHashableSendable?,
    label: consuming ReducerLabel
  ) {
    parts = Parts(kind: kind, keyPath: keyPath, elementID: elementID, label: label)
  }

  /// Inlinable, the key paths compared by identity first: a cancellation id made on one action
  /// is looked up with one made on a later action (cancel in flight), whose steps are new
  /// boxes around the same key path objects.
  @inlinable
  package static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.parts === rhs.parts { return true }
    guard lhs.kind == rhs.kind else { return false }
    guard lhs.keyPath === rhs.keyPath || lhs.keyPath == rhs.keyPath else { return false }
    // Compared where the boxes keep them (two steps without element ids, a presentation's or
    // an `ifLet`'s, are equal): `lhs.elementID == rhs.elementID` copied both optionals out of
    // their boxes first, through their existentials' value witnesses.
    switch lhs.parts.elementID {
    case .none:
      if case .none = rhs.parts.elementID { return true }
      return false
    case .some(let left):
      guard case .some(let right) = rhs.parts.elementID else { return false }
      return left == right
    }
  }

  /// Hashes `stepHash`.
  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(stepHash)
  }

  /// The step's kind, its key path's type and its element id, mixed without a `Hasher` (only
  /// an element id is hashed through one): what the step's hash and the hash of a
  /// cancellation id made under it are made of, once per id.
  ///
  /// It takes the key path's type, not its components: key paths of different types are never
  /// equal (`AnyKeyPath.==` checks the type first), so equal steps still hash alike, and
  /// hashing a key path walks its whole buffer (about 480 instructions, on every cancellation
  /// id a child's effect is given). A step without an element id (a presentation or `ifLet`)
  /// copies no existential: combining the optional id copied it through its value witnesses.
  @inlinable
  package var stepHash: Int {
    let parts = parts
    let type = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(type(of: parts.keyPath))))
    let element: Int
    switch parts.elementID {
    case .none: element = 0
    case .some(let id): element = id.hashValue
    }
    return HashMixing.mix(HashMixing.mix(type, Int(parts.kind.ordinal)), element)
  }

  @usableFromInline package var description: String {
    var text = "\(kind.rawValue)(\(label.text))"
    if let elementID {
      text += "#\(elementID)"
    }
    return text
  }
}
