extension TraceValue: CustomStringConvertible {
  /// A one-line form that reads like a Swift value.
  ///
  /// ```swift
  /// let state: TraceValue = .object([
  ///   TraceField("count", .int(1)),
  ///   TraceField("mode", .enumCase("loading", [])),
  ///   TraceField("todos", .array([.object([
  ///     TraceField("id", .int(1)), TraceField("title", .string("a\n")),
  ///   ])])),
  /// ])
  /// print(state)  // (count: 1, mode: .loading, todos: [(id: 1, title: "a\n")])
  /// ```
  ///
  /// `nil` for null; objects as `(key: value, …)`, `()` when empty, keys that are not
  /// identifiers quoted; enum cases as `.name`, `.name(value)`, `.name(label: value)`; strings
  /// quoted with control characters, ESC, DEL, U+2028/U+2029 escaped (`\n`, `\u{1B}`), never
  /// raw; bytes as `<3 bytes: 0102ff>` (the first 32 shown); reflected values as
  /// `TypeName(…)`.
  public var description: String {
    var output = ""
    write(to: &output)
    return output
  }

  /// Writes the one-line form (see `description`) to `output`.
  public func write(to output: inout some TextOutputStream) {
    switch self {
    case .null: output.write("nil")
    case .bool(let value): output.write(value ? "true" : "false")
    case .int(let value): output.write(String(value))
    case .uint(let value): output.write(String(value))
    case .double(let value): output.write(value.description)
    case .string(let value): Self.writeQuoted(value, to: &output)
    case .bytes(let value):
      output.write("<\(value.count) byte\(value.count == 1 ? "" : "s")")
      if !value.isEmpty {
        output.write(": ")
        var hex: [UInt8] = []
        for byte in value.prefix(32) { JSONWriter.appendHex(UInt64(byte), digits: 2, into: &hex) }
        output.write(String(decoding: hex, as: UTF8.self))
        if value.count > 32 { output.write("…") }
      }
      output.write(">")
    case .array(let elements):
      output.write("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { output.write(", ") }
        element.write(to: &output)
      }
      output.write("]")
    case .object(let fields):
      Self.writeFields(fields, to: &output)
    case .enumCase(let name, let fields):
      output.write(".")
      output.write(name)
      if !fields.isEmpty { Self.writeFields(fields, to: &output) }
    case .reflected(let typeName, let value):
      output.write(typeName)
      if case .object(let fields) = value {
        Self.writeFields(fields, to: &output)
      } else {
        output.write("(")
        value.write(to: &output)
        output.write(")")
      }
    }
  }

  private static func writeFields(_ fields: [TraceField], to output: inout some TextOutputStream) {
    output.write("(")
    for (index, field) in fields.enumerated() {
      if index > 0 { output.write(", ") }
      if !Self.isPositionalLabel(field.key) {
        if TracePath.isIdentifier(field.key) {
          output.write(field.key)
        } else {
          writeQuoted(field.key, to: &output)
        }
        output.write(": ")
      }
      field.value.write(to: &output)
    }
    output.write(")")
  }

  /// `_0`, `_1`, …: the labels synthesized `Codable` gives unlabelled associated values.
  private static func isPositionalLabel(_ key: String) -> Bool {
    let utf8 = key.utf8
    guard utf8.count >= 2, utf8.first == UInt8(ascii: "_") else { return false }
    return utf8.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  static func writeQuoted(_ string: String, to output: inout some TextOutputStream) {
    output.write("\"")
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output.write("\\\"")
      case "\\": output.write("\\\\")
      case "\n": output.write("\\n")
      case "\r": output.write("\\r")
      case "\t": output.write("\\t")
      case "\0": output.write("\\0")
      default:
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
          output.write("\\u{\(String(value, radix: 16, uppercase: true))}")
        } else {
          output.write(String(scalar))
        }
      }
    }
    output.write("\"")
  }
}
