/// One node of a reducer's static composition: the "reducer tree" the Recorder stores.
///
/// ```swift
/// reducerNode(of: AppFeature()).render()
/// // AppFeature
/// //   sequence
/// //     scope \.counter (Counter)
/// //     …
/// ```
package struct ReducerNode: Sendable, Hashable {
  /// What kind of reducer the node is.
  package enum Kind: String, Sendable, Hashable {
    case reduce
    case empty
    case scope
    case ifLet
    case forEach
    case presentation
    case stack
    case combine
    case sequence
    case optional
    case conditional
    case array
    case onChange
    case dependency
    /// A reducer type written by a user (its `body` is its only child), or one that
    /// implements `reduce(into:action:)` (no children).
    case custom
  }

  package var kind: Kind
  /// The reducer's type name (for `custom`) or the wrapped type (for built-ins, when known).
  package var typeName: String
  /// The state path (`\.rows`) for scope, ifLet, forEach and presentation, or the name given.
  package var label: String?
  package var children: [ReducerNode]

  package init(kind: Kind, typeName: String, label: String? = nil, children: [ReducerNode] = []) {
    self.kind = kind
    self.typeName = typeName
    self.label = label
    self.children = children
  }

  /// The tree as indented text, one node a line.
  package func render() -> String {
    var lines: [String] = []
    render(into: &lines, depth: 0)
    return lines.joined(separator: "\n")
  }

  private func render(into lines: inout [String], depth: Int) {
    var line = String(repeating: "  ", count: depth)
    switch kind {
    case .custom:
      line += typeName
    default:
      line += kind.rawValue
      if let label { line += " \(label)" }
      if !typeName.isEmpty { line += " (\(typeName))" }
    }
    lines.append(line)
    for child in children {
      child.render(into: &lines, depth: depth + 1)
    }
  }
}

/// Adopted by the built-in reducers, which know their own structure.
package protocol ReducerNodeDescribing {
  var reducerNode: ReducerNode { get }
}

/// The static composition of a reducer, walking `body` of user reducer types.
package func reducerNode<R: Reducer>(of reducer: R) -> ReducerNode {
  if let describing = reducer as? any ReducerNodeDescribing {
    return describing.reducerNode
  }
  let typeName = String(describing: R.self)
  guard R.Body.self != Never.self else {
    return ReducerNode(kind: .custom, typeName: typeName)
  }
  guard let body = reducer.body as? any Reducer else {
    return ReducerNode(kind: .custom, typeName: typeName)
  }
  return ReducerNode(kind: .custom, typeName: typeName, children: [reducerNode(of: body)])
}

/// `\.child` for a key path from `Root` (Swift prints `\Root.child`), or the given name.
///
/// Swift on Linux cannot name a computed property in a key path (`\.$sheet` prints as
/// `<computed 0x55e1… (PresentationState<Sheet.State>)>`); the address changes from run to run,
/// so it is dropped and the value type kept: `\.<computed PresentationState<Sheet.State>>`.
/// Pass `name:` to the operator to show the property's name instead.
package func keyPathLabel(_ keyPath: AnyKeyPath, name: String?) -> String {
  if let name { return name }
  var text = String(describing: keyPath)
  let rootName = "\\" + String(describing: type(of: keyPath).rootType)
  if text.hasPrefix(rootName + ".") {
    text = "\\" + text.dropFirst(rootName.count)
  }
  return withoutComputedAddresses(text)
}

/// Replaces every `<computed 0xADDRESS (Type)>` with `<computed Type>`.
private func withoutComputedAddresses(_ text: String) -> String {
  var result = ""
  var rest = Substring(text)
  while let start = rest.range(of: "<computed 0x") {
    result += rest[..<start.lowerBound]
    let afterAddress = rest[start.upperBound...].drop { $0.isHexDigit }
    guard afterAddress.hasPrefix(" (") else {
      result += rest[start.lowerBound..<start.upperBound]
      rest = rest[start.upperBound...]
      continue
    }
    result += "<computed "
    rest = afterAddress.dropFirst(2)
    // The type ends at the ")>" that closes this component.
    if let end = rest.range(of: ")>") {
      result += rest[..<end.lowerBound] + ">"
      rest = rest[end.upperBound...]
    }
  }
  return result + rest
}
