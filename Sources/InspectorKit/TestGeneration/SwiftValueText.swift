import TraceKit

/// Recorded values written as Swift source for a generated test. The trace knows a value's
/// shape, not its Swift type, so only what is certain is written as Swift: `nil`, `true`, and
/// enum cases with their labels (`.addTodoTapped(title: …)`, which only a synthesized
/// `Codable` enum records). A string, number, array or object may be a `String` or a `UUID`,
/// an `Int` or an `Int`-backed enum, an `Array` or an `IdentifiedArray`: it is written as a
/// literal handed to `.recorded(…)`, which decodes it into whatever type the compiler needs,
/// with that type's own `Decodable` — so the test compiles and means what was recorded.
///
/// ```swift
/// SwiftValueText.expression(.enumCase("filterChanged", [TraceField("_0", .string("active"))]))
/// // .filterChanged(.recorded("active"))
/// SwiftValueText.literal(.object([TraceField("id", .int(1))]))
/// // .json(#"{"id":1}"#)
/// ```
enum SwiftValueText {
  /// JSON longer than this is written over several lines of this length.
  static let jsonWidth = 72

  /// The value where the Swift type comes from the context (an action, an assignment).
  static func expression(_ value: TraceValue, width: Int = jsonWidth) -> String {
    let line = singleLine(value, width: width)
    guard line.count > width, !line.contains("\n"),
      case .enumCase(let name, let fields) = value, fields.count > 1, isIdentifier(name)
    else { return line }
    // Too long for one line: one associated value a line.
    let arguments = fields.map { field in
      indented(
        "  " + (isPositional(field.key) ? "" : identifier(field.key) + ": ")
          + expression(field.value, width: width - 2), by: "")
    }
    return "." + identifier(name) + "(\n" + arguments.joined(separator: ",\n") + ")"
  }

  private static func singleLine(_ value: TraceValue, width: Int) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return flag ? "true" : "false"
    case .enumCase("Optional.some", let fields) where fields.count == 1:
      return ".some(" + expression(fields[0].value, width: width) + ")"
    case .enumCase(let name, let fields) where isIdentifier(name):
      guard !fields.isEmpty else { return "." + identifier(name) }
      let arguments = fields.map { field in
        (isPositional(field.key) ? "" : identifier(field.key) + ": ")
          + expression(field.value, width: width)
      }
      return "." + identifier(name) + "(" + arguments.joined(separator: ", ") + ")"
    default:
      return ".recorded(" + literal(value) + ")"
    }
  }

  /// The value as a `RecordedValue`: a Swift literal for a scalar, TraceKit's JSON for the
  /// rest.
  static func literal(_ value: TraceValue, width: Int = jsonWidth) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let number): return String(number)
    case .double(let number) where number.isFinite: return "\(number)"
    case .string(let text): return EscapedText.quoted(text)
    default:
      let json = JSONOutput.escapingTerminalControls(value.jsonString)
      return ".json(" + rawString(json, width: width) + ")"
    }
  }

  /// A raw string literal (`#"…"#`) with as many `#` as the text needs; longer than
  /// `width`, a multi-line raw literal whose lines end in a continuation (`\#`), so a long
  /// document keeps to short lines and reads back as one line.
  static func rawString(_ text: String, width: Int = .max) -> String {
    guard !text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else {
      // TraceKit's JSON never holds a raw newline; other text falls back to escapes.
      return EscapedText.quoted(text)
    }
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    guard text.count > width else { return hashes + "\"" + text + "\"" + hashes }
    var out = hashes + "\"\"\"\n"
    var line = ""
    for character in text {
      if line.count == width {
        // Break after the last comma of the line when there is one in its second half: the
        // continuation joins the lines exactly, so this is only for the reader.
        var rest = ""
        if let comma = line.lastIndex(of: ","), line.distance(from: line.startIndex, to: comma)
          >= width / 2
        {
          rest = String(line[line.index(after: comma)...])
          line = String(line[...comma])
        }
        out += "  " + line + "\\" + hashes + "\n"
        line = rest
      }
      line.append(character)
    }
    out += "  " + line + "\n  \"\"\"" + hashes
    return out
  }

  /// Every line of `text` after `prefix` (a multi-line literal keeps its shape).
  static func indented(_ text: String, by prefix: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : prefix + $0 }.joined(separator: "\n")
  }

  /// Whether the text is written with a `try` (it decodes a recorded value).
  static func throwsWhenDecoded(_ text: String) -> Bool {
    text.contains(".recorded(")
  }

  static func isPositional(_ label: String) -> Bool {
    label.first == "_" && label.dropFirst().allSatisfy(\.isNumber) && label.count > 1
  }

  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first,
      first == "_" || first.properties.isAlphabetic
    else { return false }
    return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic
      || ("0"..."9").contains($0)
    }
  }

  /// A name as a Swift identifier, in backticks where it is a keyword.
  static func identifier(_ name: String) -> String {
    keywords.contains(name) ? "`" + name + "`" : name
  }

  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "switch", "where", "while", "as", "Any", "catch", "false", "is", "nil", "super",
    "self", "Self", "throw", "throws", "true", "try",
  ]
}
