/// Where in the feature tree a reducer runs: the chain of `ifLet` / `forEach` /
/// presentation children between the root and it.
///
/// Cancellation ids are stored together with the path in force when the effect was created,
/// so two `forEach` rows that both use `.cancellable(id: "timer")` do not cancel each other.
///
/// ```swift
/// // Inside the row with id 7 of `forEach(\.rows, …)`:
/// // .cancellable(id: "timer") is stored as "timer" @ [forEach(\Parent.rows)#7]
/// ```
public struct NavigationIDPath: Hashable, Sendable, CustomStringConvertible {
  /// The steps from the root, outermost first.
  package var path: [NavigationID]

  /// The root: no navigation steps.
  public init() {
    path = []
  }

  package init(path: [NavigationID]) {
    self.path = path
  }

  /// A path one step deeper.
  @usableFromInline
  package func appending(_ id: NavigationID) -> NavigationIDPath {
    NavigationIDPath(path: path + [id])
  }

  /// Whether the path has no steps.
  package var isEmpty: Bool { path.isEmpty }

  public var description: String {
    "[" + path.map(\.description).joined(separator: ", ") + "]"
  }
}

/// One step of a `NavigationIDPath`: which operator made it, which child it leads to.
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
  /// The child state's key path from its parent.
  package var keyPath: AnyHashableSendable
  /// The element id for `forEach`; `nil` for single children.
  package var elementID: AnyHashableSendable?

  @usableFromInline
  package init(kind: Kind, keyPath: AnyKeyPath & Sendable, elementID: AnyHashableSendable? = nil) {
    self.kind = kind
    self.keyPath = AnyHashableSendable(KeyPathBox(keyPath: keyPath))
    self.elementID = elementID
  }

  @usableFromInline package var description: String {
    var text = "\(kind.rawValue)(\(keyPath))"
    if let elementID {
      text += "#\(elementID)"
    }
    return text
  }
}

/// Makes a key path hashable-and-sendable storage with a readable description.
private struct KeyPathBox: Hashable, Sendable, CustomStringConvertible {
  let keyPath: AnyKeyPath & Sendable

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(keyPath)
  }

  var description: String {
    String(describing: keyPath)
  }
}
