/// Where a case path's name comes from: the declaration it was written in, an explicit name,
/// or the names of the cases a case key path goes through.
///
/// A declaration is kept as the `StaticString` of `#function` and turned into a name only when
/// asked: case paths are built on every action (reducer bodies are rebuilt per action), and
/// making a `String` each time would cost more than the rest of building them.
///
/// ```swift
/// CasePathNaming.declaration("child").name            // "child"
/// CasePathNaming.declaration("body").name             // nil (a reducer's body, not a case)
/// CasePathNaming.declaration("subscript(id:)").name   // nil
/// ```
@usableFromInline
package enum CasePathNaming: Sendable {
  /// The `#function` of the place the case path was built in: a property `child` names the
  /// case `child`; a function, a subscript or a reducer's `body` names nothing.
  case declaration(StaticString)
  /// A name given or derived: `"child"`, `"destination.presented"`.
  case name(String)
  /// No name.
  case none
  /// The identity case path (`\.self`): nothing to name, and nothing added to a path.
  case identity

  /// The name, if the source tells one.
  package var name: String? {
    switch self {
    case let .declaration(function):
      let text = "\(function)"
      return Self.isCaseName(text) ? text : nil
    case let .name(name):
      return name
    case .none, .identity:
      return nil
    }
  }

  /// The naming of a path that goes through this case, then `other`: both names joined with a
  /// dot, or no name when either is unknown.
  package func appending(_ other: CasePathNaming) -> CasePathNaming {
    if case .identity = self { return other }
    if case .identity = other { return self }
    guard let name, let otherName = other.name else { return .none }
    // A subscript case path (`[id: 3]`) reads as a subscript: `rows[id: 3]`.
    return .name(name + (otherName.hasPrefix("[") ? "" : ".") + otherName)
  }

  /// Whether `#function` names a property that can be a case: an identifier (a function or a
  /// subscript has parentheses), and not `body`, where a reducer builds its case paths inline.
  static func isCaseName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, text != "body" else { return false }
    guard first == "_" || first.properties.isAlphabetic else { return false }
    return text.unicodeScalars.allSatisfy { scalar in
      scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
  }
}
