import ComposableCore

/// A value as a tree of lines, for failure messages: the structure `Mirror` sees.
///
/// ```swift
/// ValueDump(Counter.State(count: 1)).lines()
/// // ["Counter.State(", "  count: 1", ")"]
/// ```
struct ValueDump: Equatable {
  /// The first line (`Counter.State(`), or the whole value for a leaf (`1`, `"a"`, `.idle`).
  var header: String
  /// The children, each with its label (`count:`, `[0]:`).
  var children: [(label: String?, dump: ValueDump)]
  /// The closing line (`)` / `]`), for nodes with children.
  var footer: String?

  init(_ value: Any) {
    self = ValueDump.make(value)
  }

  private init(header: String, children: [(label: String?, dump: ValueDump)], footer: String?) {
    self.header = header
    self.children = children
    self.footer = footer
  }

  static func == (lhs: ValueDump, rhs: ValueDump) -> Bool {
    lhs.lines() == rhs.lines()
  }

  /// The value rendered, two spaces per level.
  func lines(label: String? = nil, depth: Int = 0) -> [String] {
    let indent = String(repeating: "  ", count: depth)
    let prefix = label.map { "\($0): " } ?? ""
    guard let footer else {
      return [indent + prefix + header]
    }
    if children.isEmpty {
      return [indent + prefix + header + footer]
    }
    var result = [indent + prefix + header]
    for child in children {
      result += child.dump.lines(label: child.label, depth: depth + 1)
    }
    result.append(indent + footer)
    return result
  }

  private static func make(_ value: Any) -> ValueDump {
    let mirror = Mirror(reflecting: value)
    let typeName = Self.typeName(type(of: value))
    switch mirror.displayStyle {
    case .optional:
      guard let child = mirror.children.first else {
        return ValueDump(header: "nil", children: [], footer: nil)
      }
      return make(child.value)
    case .struct, .class:
      // A value that reflects nothing (Foundation's `UUID` on Linux) is told by its text;
      // else two different ids would render alike.
      if mirror.children.isEmpty, let text = (value as? any CustomStringConvertible)?.description
      {
        return ValueDump(header: typeName + "(" + text + ")", children: [], footer: nil)
      }
      let children = mirror.children.map { child in
        (label: displayLabel(child.label, value: child.value), dump: make(child.value))
      }
      return ValueDump(header: typeName + "(", children: children, footer: ")")
    case .tuple:
      let children = mirror.children.map { child in
        (label: tupleLabel(child.label), dump: make(child.value))
      }
      return ValueDump(header: "(", children: children, footer: ")")
    case .collection, .set:
      var children = mirror.children.map { (label: String?.none, dump: make($0.value)) }
      if mirror.displayStyle == .set {
        children.sort { $0.dump.lines().joined() < $1.dump.lines().joined() }
      }
      let labeled = children.enumerated().map { index, child in
        (label: mirror.displayStyle == .set ? nil : "[\(index)]", dump: child.dump)
      }
      return ValueDump(header: "[", children: labeled, footer: "]")
    case .dictionary:
      var pairs: [(label: String?, dump: ValueDump)] = mirror.children.map { child in
        let pair = Array(Mirror(reflecting: child.value).children)
        let key = pair.first.map { make($0.value).lines().joined(separator: " ") } ?? "?"
        let dump = pair.count > 1 ? make(pair[1].value) : make(child.value)
        return (label: key, dump: dump)
      }
      pairs.sort { ($0.label ?? "") < ($1.label ?? "") }
      return ValueDump(header: "[", children: pairs, footer: "]")
    case .enum:
      guard let child = mirror.children.first, let label = child.label else {
        return ValueDump(header: ".\(value)", children: [], footer: nil)
      }
      let payload = make(child.value)
      if payload.footer == nil, payload.children.isEmpty {
        return ValueDump(header: ".\(label)(\(payload.header))", children: [], footer: nil)
      }
      if payload.header == "(" {
        return ValueDump(header: ".\(label)(", children: payload.children, footer: ")")
      }
      return ValueDump(header: ".\(label)(", children: [(nil, payload)], footer: ")")
    default:
      if let string = value as? String {
        return ValueDump(header: String(reflecting: string), children: [], footer: nil)
      }
      if mirror.children.isEmpty {
        return ValueDump(header: String(describing: value), children: [], footer: nil)
      }
      let children = mirror.children.map { child in
        (label: child.label, dump: make(child.value))
      }
      return ValueDump(header: typeName + "(", children: children, footer: ")")
    }
  }

  private static func displayLabel(_ label: String?, value: Any) -> String? {
    guard let label else { return nil }
    if label.hasPrefix("_"), value is any PropertyWrapperReflecting {
      return String(label.dropFirst())
    }
    return label
  }

  private static func tupleLabel(_ label: String?) -> String? {
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }

  /// `Counter.State`, not `ModuleName.Counter.State`.
  static func typeName(_ type: Any.Type) -> String {
    var full = String(reflecting: type)
    // Private and local types print as `Module.(unknown context at $55bf…).Name`.
    while let start = full.range(of: "(unknown context at "),
      let end = full[start.upperBound...].range(of: ").")
    {
      full.removeSubrange(start.lowerBound..<end.upperBound)
    }
    guard let dot = full.firstIndex(of: ".") else { return full }
    let module = full[..<dot]
    if module.contains("<") || module.contains("(") { return full }
    return String(full[full.index(after: dot)...])
  }
}
