import TraceKit

/// Renders a `TraceValue` as an indented tree in the style of a Swift value dump: objects as
/// `(` fields `)`, enum cases as `.name(…)`, arrays with `[index]:` labels, long arrays and
/// objects (dictionaries) folded with a count, leaf-only containers kept on one line when they
/// fit the width.
///
/// ```swift
/// var out = ""
/// ValueDumper(width: 80).dump(
///   .object([TraceField("count", .int(1)), TraceField("mode", .enumCase("idle", []))]),
///   typeName: "Counter.State", into: &out
/// )
/// // Counter.State(
/// //   count: 1,
/// //   mode: .idle
/// // )
/// ```
struct ValueDumper {
  /// Columns a line may use.
  var width: Int
  /// Elements shown per array before the rest fold into `… N more` (0: never fold).
  var maxItems: Int = 50
  /// Bytes shown of a `.bytes` value before the rest fold.
  var maxBytes: Int = 32

  /// Writes the value, one line per `\n`-terminated line.
  func dump(
    _ value: TraceValue, typeName: String? = nil, into out: inout some TextOutputStream
  ) {
    lines(value, typeName: typeName) { out.write($0 + "\n") }
  }

  /// The value's lines (without line ends), the first one starting with `label`.
  func lines(
    _ value: TraceValue, label: String = "", typeName: String? = nil, indent: Int = 0,
    suffix: String = "", _ emit: (String) -> Void
  ) {
    let pad = String(repeating: " ", count: indent)
    if isLeaf(value) {
      emit(pad + label + scalarLine(value) + suffix)
      return
    }
    let (open, close, children) = parts(of: value, typeName: typeName)
    if children.isEmpty {
      emit(pad + label + open + close + suffix)
      return
    }
    if children.allSatisfy({ isLeaf($0.value) }), maxItems == 0 || children.count <= maxItems {
      let inline = pad + label + inlineText(value, typeName: typeName) + suffix
      if inline.count <= width {
        emit(inline)
        return
      }
    }
    emit(pad + label + open)
    let shown = maxItems > 0 && value.isCollection ? min(children.count, maxItems) : children.count
    for (offset, child) in children.prefix(shown).enumerated() {
      let last = offset == children.count - 1
      lines(child.value, label: child.label, indent: indent + 2, suffix: last ? "" : ",", emit)
    }
    if shown < children.count {
      emit(pad + "  … " + NumberText.grouped(children.count - shown) + " more")
    }
    emit(pad + close + suffix)
  }

  /// The value on one line, arrays without index labels, long arrays folded.
  func inlineText(_ value: TraceValue, typeName: String? = nil) -> String {
    if isLeaf(value) { return scalarLine(value) }
    let (open, close, children) = parts(of: value, typeName: typeName)
    let shown = maxItems > 0 && value.isCollection ? min(children.count, maxItems) : children.count
    var pieces = children.prefix(shown).map { child in
      (value.isArray ? "" : child.label) + inlineText(child.value)
    }
    if shown < children.count {
      pieces.append("… " + NumberText.grouped(children.count - shown) + " more")
    }
    return open + pieces.joined(separator: ", ") + close
  }

  /// A container's opening and closing text and its labelled children.
  func parts(
    of value: TraceValue, typeName: String? = nil
  ) -> (open: String, close: String, children: [(label: String, value: TraceValue)]) {
    switch value {
    case .array(let elements):
      return ("[", "]", elements.enumerated().map { ("[\($0.offset)]: ", $0.element) })
    case .object(let fields):
      let name = typeName.map(EscapedText.plain) ?? ""
      return (name + "(", ")", fields.map { (Self.fieldLabel($0.key), $0.value) })
    case .enumCase(let name, let fields):
      return (
        "." + EscapedText.plain(name) + "(", ")",
        fields.map {
          (Self.isPositional($0.key) ? "" : Self.fieldLabel($0.key), $0.value)
        }
      )
    case .reflected(let type, let inner):
      if case .object = inner { return parts(of: inner, typeName: type) }
      return (EscapedText.plain(type) + "(", ")", [("", inner)])
    default:
      return ("", "", [])
    }
  }

  /// Whether the value is written on one line whatever its size.
  func isLeaf(_ value: TraceValue) -> Bool {
    switch value {
    case .array(let elements): elements.isEmpty
    case .object(let fields): fields.isEmpty
    case .enumCase(_, let fields): fields.isEmpty
    case .reflected(_, let inner): isLeaf(inner) && !inner.isContainer
    default: true
    }
  }

  /// A leaf on one line.
  func scalarLine(_ value: TraceValue) -> String {
    switch value {
    case .bytes(let bytes):
      let hex = bytes.prefix(maxBytes).map { byte in
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
      }.joined()
      let more = bytes.count > maxBytes ? "…" : ""
      return "Bytes(\(NumberText.grouped(bytes.count)) bytes: \(hex)\(more))"
    case .array: return "[]"
    case .object: return "()"
    case .enumCase(let name, _): return "." + EscapedText.plain(name)
    case .reflected(let type, let inner):
      return EscapedText.plain(type) + "(" + scalarLine(inner) + ")"
    default: return Self.scalarText(value)
    }
  }

  /// Scalars (and, briefly, anything else) as one short piece of text.
  static func scalarText(_ value: TraceValue) -> String {
    switch value {
    case .null: "nil"
    case .bool(let b): b ? "true" : "false"
    case .int(let i): String(i)
    case .uint(let u): String(u)
    case .double(let d): "\(d)"
    case .string(let s): EscapedText.quoted(s)
    case .bytes(let b): "Bytes(\(b.count))"
    case .array(let a): a.isEmpty ? "[]" : "[…]"
    case .object(let f): f.isEmpty ? "()" : "(…)"
    case .enumCase(let name, let f): "." + EscapedText.plain(name) + (f.isEmpty ? "" : "(…)")
    case .reflected(let type, _): EscapedText.plain(type) + "(…)"
    }
  }

  /// A field's label: a struct field's name as written in Swift; any other key (a
  /// dictionary's, which may hold anything) quoted and escaped like a string value, so
  /// `"count: 5, id": 1` cannot pass for two fields.
  ///
  /// ```swift
  /// ValueDumper.fieldLabel("count")     // "count: "
  /// ValueDumper.fieldLabel("New York")  // "\"New York\": "
  /// ```
  static func fieldLabel(_ key: String) -> String {
    (isIdentifier(key) ? key : EscapedText.quoted(key)) + ": "
  }

  /// A Swift identifier in ASCII: a letter or `_`, then letters, digits and `_`.
  static func isIdentifier(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(0x30...0x39).contains(first) else { return false }
    return key.utf8.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
        || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
    }
  }

  /// Swift's synthesized `Codable` labels unlabelled associated values `_0`, `_1`, …
  static func isPositional(_ key: String) -> Bool {
    key.first == "_" && key.count > 1 && key.dropFirst().allSatisfy(\.isNumber)
  }
}

extension TraceValue {
  /// Arrays and objects (dictionaries are objects) fold past `maxItems`; enum payloads never.
  var isCollection: Bool {
    switch self {
    case .array, .object: true
    case .reflected(_, let inner): inner.isCollection
    default: false
    }
  }

  var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  var isContainer: Bool {
    switch self {
    case .array, .object, .enumCase, .reflected: true
    default: false
    }
  }
}
