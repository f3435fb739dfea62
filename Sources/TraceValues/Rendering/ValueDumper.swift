/// The one look of a value: writes a `TraceValue` as an indented tree in the style of a Swift
/// value dump (swift-custom-dump's): objects as `(` fields `)`, enum cases as `.name(…)`,
/// arrays with `[index]:` labels, long arrays and objects (dictionaries) folded with a count,
/// leaf-only containers kept on one line when they fit the width. The same look serves
/// `inspector show`, the interactive view's State tab, TestStore failures and, on one line,
/// `TraceValue.description`.
///
/// ```swift
/// var out = ""
/// ValueDumper(width: 80).dump(
///   .object([TraceField("count", .int(1)), TraceField("mode", .enumCase("idle", []))]),
///   typeName: "Counter.State", into: &out
/// )
/// print(out, terminator: "")
/// // Counter.State(
/// //   count: 1,
/// //   mode: .idle
/// // )
/// ```
///
/// Recorded text is untrusted: strings, keys, case and type names pass through `EscapedText`,
/// so nothing a value holds reaches a terminal raw. A key that is not an ASCII identifier is
/// quoted (`"a key": 1`), as in a path (`["a key"]`).
package struct ValueDumper: Sendable {
  /// Columns a line may use.
  package var width: Int
  /// Elements shown per array or object before the rest fold into `… N more` (0: never fold).
  package var maxItems: Int
  /// Bytes shown of a `.bytes` value before the rest fold.
  package var maxBytes: Int

  package init(width: Int = 80, maxItems: Int = 50, maxBytes: Int = 32) {
    self.width = width
    self.maxItems = maxItems
    self.maxBytes = maxBytes
  }

  /// Writes the value, one `\n`-terminated line per line.
  package func dump(
    _ value: TraceValue, typeName: String? = nil, into out: inout some TextOutputStream
  ) {
    lines(value, typeName: typeName) { out.write($0 + "\n") }
  }

  /// The value's lines (without line ends), the first one starting with `label`.
  package func lines(
    _ value: TraceValue, label: String = "", typeName: String? = nil, indent: Int = 0,
    suffix: String = "", _ emit: (String) -> Void
  ) {
    var path: [TracePath.Component] = []
    walk(value, label: label, typeName: typeName, indent: indent, suffix: suffix, &path, nil) {
      emit(String(repeating: " ", count: $0.indent) + $0.text)
    }
  }

  /// The value as a tree whose containers open only where `expanded` says so (the root always
  /// opens): each line with its path, for a view that expands and collapses parts of it. A
  /// closed container is its one-line form.
  ///
  /// ```swift
  /// ValueDumper(width: 80).outline(state, typeName: "App.State", expanded: []) {
  ///   print($0.indent, $0.text, $0.path)
  /// }
  /// // 0 App.State( .
  /// // 2 todos: [(id: 1, title: "Milk", done: false)], todos
  /// // 0 ) .
  /// ```
  package func outline(
    _ value: TraceValue, typeName: String? = nil, expanded: Set<TracePath>,
    _ emit: (OutlineLine) -> Void
  ) {
    var path: [TracePath.Component] = []
    walk(value, label: "", typeName: typeName, indent: 0, suffix: "", &path, expanded, emit)
  }

  /// One line of `outline`.
  package struct OutlineLine: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
      /// A scalar or an empty container.
      case leaf
      /// A container written on one line: closed in an outline, or short enough in a dump.
      case closed
      /// The first line of an open container.
      case open
      /// The last line of an open container.
      case close
      /// `… N more`.
      case more
    }

    package var indent: Int
    package var text: String
    package var kind: Kind
    /// The value this line shows (for `close` and `more`, the container's).
    package var path: TracePath
  }

  /// `expanded == nil`: a dump (every container opens unless it is short enough for one line);
  /// otherwise an outline.
  private func walk(
    _ value: TraceValue, label: String, typeName: String?, indent: Int, suffix: String,
    _ path: inout [TracePath.Component], _ expanded: Set<TracePath>?,
    _ emit: (OutlineLine) -> Void
  ) {
    func line(_ text: String, _ kind: OutlineLine.Kind, indent: Int = indent) {
      emit(OutlineLine(indent: indent, text: text, kind: kind, path: TracePath(path)))
    }
    if isLeaf(value) {
      line(label + scalarLine(value, typeName: typeName) + suffix, .leaf)
      return
    }
    let (open, close, children) = parts(of: value, typeName: typeName)
    if children.isEmpty {
      line(label + open + close + suffix, .leaf)
      return
    }
    if let expanded {
      if !path.isEmpty, !expanded.contains(TracePath(path)) {
        line(label + inlineText(value, typeName: typeName) + suffix, .closed)
        return
      }
    } else if children.allSatisfy({ isLeaf($0.value) }),
      maxItems == 0 || children.count <= maxItems
    {
      let inline = label + inlineText(value, typeName: typeName) + suffix
      if indent + inline.count <= width {
        line(inline, .closed)
        return
      }
    }
    line(label + open, .open)
    let shown = maxItems > 0 && value.isCollection ? min(children.count, maxItems) : children.count
    for (offset, child) in children.prefix(shown).enumerated() {
      let last = offset == children.count - 1
      path.append(contentsOf: child.components)
      walk(
        child.value, label: child.label, typeName: nil, indent: indent + 2,
        suffix: last ? "" : ",", &path, expanded, emit)
      path.removeLast(child.components.count)
    }
    if shown < children.count {
      line(
        "… " + DigitGrouping.grouped(children.count - shown) + " more", .more, indent: indent + 2)
    }
    line(close + suffix, .close)
  }

  /// The value on one line, arrays without index labels, long arrays folded.
  package func inlineText(_ value: TraceValue, typeName: String? = nil) -> String {
    var out = ""
    writeInline(value, typeName: typeName, to: &out)
    return out
  }

  /// Writes the value on one line (see `inlineText`).
  package func writeInline(
    _ value: TraceValue, typeName: String? = nil, to out: inout some TextOutputStream
  ) {
    if isLeaf(value) {
      out.write(scalarLine(value, typeName: typeName))
      return
    }
    let (open, close, children) = parts(of: value, typeName: typeName)
    let shown = maxItems > 0 && value.isCollection ? min(children.count, maxItems) : children.count
    out.write(open)
    for (offset, child) in children.prefix(shown).enumerated() {
      if offset > 0 { out.write(", ") }
      if !value.isArray { out.write(child.label) }
      writeInline(child.value, to: &out)
    }
    if shown < children.count {
      out.write(", … " + DigitGrouping.grouped(children.count - shown) + " more")
    }
    out.write(close)
  }

  /// One child of a container: its label (`count: `, `[2]: `, or none for an unlabelled
  /// associated value), the path components that select it from the container, and its value.
  package struct Child {
    package var label: String
    /// One component for a field or an element; for an enum's associated value the case name
    /// and the field (only the case name when a single unlabelled value is entered directly),
    /// none for what a `.reflected` marker wraps (paths look through it).
    package var components: [TracePath.Component]
    package var value: TraceValue
  }

  /// A container's opening and closing text and its children.
  package func parts(
    of value: TraceValue, typeName: String? = nil
  ) -> (open: String, close: String, children: [Child]) {
    switch value {
    case .array(let elements):
      let ids = Self.identifiers(elements)
      let children = elements.enumerated().map { offset, element in
        Child(
          label: "[\(offset)]: ", components: [ids.map { .id($0[offset]) } ?? .index(offset)],
          value: element)
      }
      return ("[", "]", children)
    case .object(let fields):
      let name = typeName.map(EscapedText.plain) ?? ""
      let children = fields.map { field in
        Child(label: Self.fieldLabel(field.key), components: [.key(field.key)], value: field.value)
      }
      return (name + "(", ")", children)
    case .enumCase(let name, let fields):
      let entered = fields.count == 1 && fields[0].key == "_0"
      let children = fields.map { field in
        Child(
          label: Self.label(field.key),
          components: entered ? [.key(name)] : [.key(name), .key(field.key)], value: field.value)
      }
      return ("." + EscapedText.plain(name) + "(", ")", children)
    case .reflected(let type, let inner):
      if case .object = inner { return parts(of: inner, typeName: typeName ?? type) }
      let name = typeName.map(EscapedText.plain) ?? EscapedText.plain(type)
      return (name + "(", ")", [Child(label: "", components: [], value: inner)])
    default:
      return ("", "", [])
    }
  }

  /// Whether the value is written on one line whatever its size.
  package func isLeaf(_ value: TraceValue) -> Bool {
    switch value {
    case .array(let elements): elements.isEmpty
    case .object(let fields): fields.isEmpty
    case .enumCase(_, let fields): fields.isEmpty
    case .reflected(_, let inner): isLeaf(inner) && !inner.isContainer
    default: true
    }
  }

  /// A leaf on one line.
  package func scalarLine(_ value: TraceValue, typeName: String? = nil) -> String {
    switch value {
    case .bytes(let bytes): return Self.bytesText(bytes, shown: maxBytes)
    case .array: return "[]"
    case .object: return (typeName.map(EscapedText.plain) ?? "") + "()"
    case .enumCase(let name, _): return "." + EscapedText.plain(name)
    case .reflected(let type, let inner):
      return EscapedText.plain(typeName ?? type) + "(" + scalarLine(inner) + ")"
    default: return Self.scalarText(value)
    }
  }

  /// Scalars (and, briefly, anything else) as one short piece of text. This is where a leaf
  /// gets its look, in every renderer.
  package static func scalarText(_ value: TraceValue) -> String {
    switch value {
    case .null: "nil"
    case .bool(let b): b ? "true" : "false"
    case .int(let i): String(i)
    case .uint(let u): String(u)
    case .double(let d): d.description
    case .string(let s): EscapedText.quoted(s)
    case .bytes(let b): bytesText(b, shown: 32)
    case .array(let a): a.isEmpty ? "[]" : "[…]"
    case .object(let f): f.isEmpty ? "()" : "(…)"
    case .enumCase(let name, let f): "." + EscapedText.plain(name) + (f.isEmpty ? "" : "(…)")
    case .reflected(let type, _): EscapedText.plain(type) + "(…)"
    }
  }

  /// `<3 bytes: 0102ff>`, the first `shown` bytes in hex.
  static func bytesText(_ bytes: [UInt8], shown: Int) -> String {
    var text = "<" + DigitGrouping.grouped(bytes.count) + (bytes.count == 1 ? " byte" : " bytes")
    if !bytes.isEmpty {
      text += ": "
      for byte in bytes.prefix(shown) {
        text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
      }
      if bytes.count > shown { text += "…" }
    }
    return text + ">"
  }

  /// A field's label: a struct field's name as written in Swift; any other key (a
  /// dictionary's, which may hold anything) quoted and escaped like a string value, so
  /// `"count: 5, id": 1` cannot pass for two fields, as in a path (`["a key"]`).
  ///
  /// ```swift
  /// ValueDumper.fieldLabel("count")     // "count: "
  /// ValueDumper.fieldLabel("New York")  // "\"New York\": "
  /// ```
  package static func fieldLabel(_ key: String) -> String {
    (TracePath.isIdentifier(key) ? key : EscapedText.quoted(key)) + ": "
  }

  /// An enum payload's label; none for a positional key (an unlabelled associated value).
  /// Object keys always show: a dictionary's key `_0` is a key like any other.
  package static func label(_ key: String) -> String {
    isPositional(key) ? "" : fieldLabel(key)
  }

  /// Swift's synthesized `Codable` labels unlabelled associated values `_0`, `_1`, …
  package static func isPositional(_ key: String) -> Bool {
    let utf8 = key.utf8
    guard utf8.count >= 2, utf8.first == UInt8(ascii: "_") else { return false }
    return utf8.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// The `id` of every element when all of them are objects with a distinct `id` field: such
  /// arrays are addressed by id (`todos[id: 3]`), as `TraceDiff` addresses them.
  package static func identifiers(_ elements: [TraceValue]) -> [TraceValue]? {
    guard !elements.isEmpty else { return nil }
    var ids: [TraceValue] = []
    ids.reserveCapacity(elements.count)
    for element in elements {
      guard case .object(let fields) = element, let id = fields.first(where: { $0.key == "id" })
      else { return nil }
      ids.append(id.value)
    }
    return Set(ids).count == ids.count ? ids : nil
  }
}

extension TraceValue {
  /// Arrays and objects (dictionaries are objects) fold past `maxItems`; enum payloads never.
  package var isCollection: Bool {
    switch self {
    case .array, .object: true
    case .reflected(_, let inner): inner.isCollection
    default: false
    }
  }

  package var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  package var isContainer: Bool {
    switch self {
    case .array, .object, .enumCase, .reflected: true
    default: false
    }
  }
}
