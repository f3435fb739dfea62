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
///
/// A name is *known* to be the case's when it was given, or when it comes from a case key
/// path: the `AllCasePaths` members it goes through are the cases, as upstream's macro declares
/// them. A static property's name is only a convention (a test target may call its case path
/// for the case `rows` `boardRows` to keep it apart from another feature's), so labels prefer
/// what the key path or the action case itself says over it (see `ReducerLabel`).
@usableFromInline
package enum CasePathNaming: Sendable {
  /// The `#function` of the place the case path was built in: a property `child` names the
  /// case `child`; a function, a subscript or a reducer's `body` names nothing.
  case declaration(StaticString)
  /// A name given or read from a case key path: `"child"`, `"destination.presented"`.
  case name(String)
  /// Names of declarations joined through `appending`: as much a convention as `declaration`.
  case declaredPath(String)
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
    case let .name(name), let .declaredPath(name):
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
    let joined = name + (otherName.hasPrefix("[") ? "" : ".") + otherName
    return isKnownCaseName && other.isKnownCaseName ? .name(joined) : .declaredPath(joined)
  }

  /// Whether the name is known to be the case's (given, or read from a case key path), not
  /// taken from the name of a property that holds the case path.
  package var isKnownCaseName: Bool {
    if case .name = self { return true }
    return false
  }

  /// The naming of a case path made from a case key path: its name is the case's (the
  /// `AllCasePaths` members are the cases), made a `String` once.
  var readFromCaseKeyPath: CasePathNaming {
    switch self {
    case .declaration, .declaredPath: name.map(CasePathNaming.name) ?? .none
    case .name, .none, .identity: self
    }
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
