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
  }

  /// The operator that made the step.
  package var kind: Kind
  /// The child state's key path from its parent: the step's identity.
  package var keyPath: AnyKeyPath & Sendable
  /// The element id for `forEach` and stack elements; `nil` for single children.
  package var elementID: AnyHashableSendable?
  /// How the step is named (not part of its identity).
  package var label: ReducerLabel

  @usableFromInline
  package init(
    kind: Kind, keyPath: AnyKeyPath & Sendable, elementID: AnyHashableSendable? = nil,
    label: ReducerLabel? = nil
  ) {
    self.kind = kind
    self.keyPath = keyPath
    self.elementID = elementID
    self.label = label ?? ReducerLabel(keyPath: keyPath)
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind == rhs.kind && lhs.keyPath == rhs.keyPath && lhs.elementID == rhs.elementID
  }

  /// Hashes the key path's type, not its components: key paths of different types are never
  /// equal (`AnyKeyPath.==` checks the type first), so equal steps still hash alike, and
  /// hashing a key path walks its whole buffer (about 480 instructions, on every cancellation
  /// id a child's effect is given).
  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(ObjectIdentifier(type(of: keyPath)))
    hasher.combine(elementID)
  }

  @usableFromInline package var description: String {
    var text = "\(kind.rawValue)(\(label.text))"
    if let elementID {
      text += "#\(elementID)"
    }
    return text
  }
}
