// The typed form of a path: how the inspector prints changed paths and how a person writes
// `--path`. It round-trips: `TracePath(parsing: path.description) == path`.

extension TracePath: CustomStringConvertible {
  /// The path as a person types it; the root is `.`.
  ///
  /// ```swift
  /// let path = TracePath([.key("todos"), .id(.int(3)), .key("title")])
  /// print(path)  // todos[id: 3].title
  /// print(TracePath([.key("a b"), .index(2)]))  // ["a b"][2]
  /// ```
  ///
  /// A key that is an ASCII identifier is written after a `.`; any other key is a quoted JSON
  /// string in brackets. An id is written as the JSON form of its value.
  public var description: String {
    if components.isEmpty { return "." }
    // Most changed paths are one field (`count`): the key is the text.
    if components.count == 1, case .key(let key) = components[0], Self.isIdentifier(key) {
      return key
    }
    // The writer describes every changed path of every step: reserved once, and each key's
    // bytes copied from its contiguous UTF-8 (a generic append of `key.utf8`, and growing the
    // buffer, were most of a path's cost).
    var buffer: [UInt8] = []
    buffer.reserveCapacity(64)
    for position in components.indices {
      switch components[position] {
      case .key(let key):
        var bytes = key
        let written = bytes.withUTF8 { bytes in
          guard Self.isIdentifier(bytes) else { return false }
          if position > 0 { buffer.append(UInt8(ascii: ".")) }
          buffer.append(contentsOf: bytes)
          return true
        }
        if !written {
          buffer.append(UInt8(ascii: "["))
          JSONWriter.writeString(key, escapingDollar: false, into: &buffer)
          buffer.append(UInt8(ascii: "]"))
        }
      case .index(let index):
        buffer.append(UInt8(ascii: "["))
        var digits = String(index)
        digits.withUTF8 { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "]"))
      case .id(let id):
        JSONWriter.appendASCII("[id: ", into: &buffer)
        id.writeJSON(into: &buffer)
        buffer.append(UInt8(ascii: "]"))
      }
    }
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Reads a path written as `description` writes it.
  ///
  /// ```swift
  /// let path = try TracePath(parsing: #"todos[id: "A1"].title"#)
  /// print(path.components)  // [.key("todos"), .id(.string("A1")), .key("title")]
  /// ```
  ///
  /// Accepted: the root as an empty text or `.`; an optional leading `.`; `.key` with an ASCII
  /// identifier; `["any key"]`; `[2]`; `[id: <JSON value>]`; spaces inside brackets.
  ///
  /// - Throws: `TracePathError` with the column and what was expected there.
  public init(parsing text: String) throws(TracePathError) {
    let bytes = Array(text.utf8)
    var parser = PathParser(text: text, bytes: bytes)
    self.init(try parser.parse())
  }

  static func isIdentifier(_ key: String) -> Bool {
    var key = key
    return key.withUTF8 { isIdentifier($0) }
  }

  static func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, PathParser.isIdentifierByte(first, first: true) else {
      return false
    }
    for byte in bytes.dropFirst() where !PathParser.isIdentifierByte(byte, first: false) {
      return false
    }
    return true
  }
}

private struct PathParser {
  let text: String
  let bytes: [UInt8]
  var offset = 0

  init(text: String, bytes: [UInt8]) {
    self.text = text
    self.bytes = bytes
  }

  static func isIdentifierByte(_ byte: UInt8, first: Bool) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      true
    case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
    default: false
    }
  }

  var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  func error(_ expected: String, at position: Int? = nil) -> TracePathError {
    let prefix = bytes[0..<min(position ?? offset, bytes.count)]
    let column = String(decoding: prefix, as: UTF8.self).count + 1
    return TracePathError(text: text, column: column, expected: expected)
  }

  mutating func parse() throws(TracePathError) -> [TracePath.Component] {
    var components: [TracePath.Component] = []
    if bytes.isEmpty || bytes == [UInt8(ascii: ".")] { return components }
    if current == UInt8(ascii: ".") {
      offset += 1
      components.append(.key(try identifier(after: "'.'")))
    } else if current == UInt8(ascii: "[") {
      components.append(try bracket())
    } else {
      components.append(.key(try identifier(after: nil)))
    }
    while let byte = current {
      switch byte {
      case UInt8(ascii: "."):
        offset += 1
        components.append(.key(try identifier(after: "'.'")))
      case UInt8(ascii: "["):
        components.append(try bracket())
      default:
        throw error("'.', '[' or the end of the path")
      }
    }
    return components
  }

  mutating func identifier(after: String?) throws(TracePathError) -> String {
    let start = offset
    while let byte = current, Self.isIdentifierByte(byte, first: offset == start) {
      offset += 1
    }
    if offset == start {
      let what = "a key name or '['"
      throw error(after.map { "\(what) after \($0)" } ?? what)
    }
    return String(decoding: bytes[start..<offset], as: UTF8.self)
  }

  mutating func skipSpaces() {
    while current == UInt8(ascii: " ") { offset += 1 }
  }

  mutating func bracket() throws(TracePathError) -> TracePath.Component {
    offset += 1
    skipSpaces()
    let component: TracePath.Component
    switch current ?? 0 {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      let start = offset
      var index = 0
      while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        let (times10, o1) = index.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
        if o1 || o2 { throw error("an index that fits in Int", at: start) }
        index = sum
        offset += 1
      }
      component = .index(index)
    case UInt8(ascii: "\""):
      component = .key(try json { (parser) throws(TraceValueError) in
        .string(try parser.parseString())
      }.stringValue ?? "")
    case UInt8(ascii: "i"):
      guard bytes.count - offset >= 2, bytes[offset + 1] == UInt8(ascii: "d") else {
        throw error("'\"', a digit or 'id:' after '['")
      }
      offset += 2
      skipSpaces()
      guard current == UInt8(ascii: ":") else { throw error("':' after 'id'") }
      offset += 1
      skipSpaces()
      component = .id(try json { (parser) throws(TraceValueError) in try parser.parseValue() })
    default:
      throw error("'\"', a digit or 'id:' after '['")
    }
    skipSpaces()
    guard current == UInt8(ascii: "]") else { throw error("']'") }
    offset += 1
    return component
  }

  /// Runs the JSON parser from the current offset and moves past what it read.
  mutating func json(
    _ read: (inout JSONParser) throws(TraceValueError) -> TraceValue
  ) throws(TracePathError) -> TraceValue {
    let start = offset
    let result = bytes.withUnsafeBufferPointer {
      buffer -> Result<(TraceValue, Int), TraceValueError> in
      var parser = JSONParser(bytes: buffer, offset: start)
      do throws(TraceValueError) {
        let value = try read(&parser)
        return .success((value, parser.offset))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let (value, end)):
      offset = end
      return value
    case .failure(let failure):
      throw error("a JSON value (\(failure.reason))", at: failure.offset)
    }
  }
}

extension TraceValue {
  var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }
}
