/// A type's name as a trace stores it: `String(reflecting:)`, with the process address it
/// prints for a private type's context replaced, so two recordings store the same text.
///
/// ```swift
/// StableTypeName.of("ComposableCore.(unknown context at $55c6d5523300).DateGeneratorKey")
/// // "ComposableCore.(private).DateGeneratorKey"
/// ```
enum StableTypeName {
  static func of(_ name: String) -> String {
    guard name.contains("(unknown context at $") else { return name }
    var result = ""
    var rest = Substring(name)
    while let start = rest.range(of: "(unknown context at $") {
      result += rest[..<start.lowerBound] + "(private)"
      rest = rest[start.upperBound...]
      if let end = rest.firstIndex(of: ")") { rest = rest[rest.index(after: end)...] }
    }
    return result + rest
  }

  static func of(_ type: Any.Type) -> String {
    of(String(reflecting: type))
  }
}
