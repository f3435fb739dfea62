// The JSON form of a trace value. Both directions are hand-written over UTF-8 bytes: this runs
// for every recorded step (the writer) and every replayed step (the reader), and Foundation's
// JSON coders cost microseconds per small value and lose the distinctions below.

extension TraceValue {
  /// Appends the JSON form of the value to `buffer`.
  ///
  /// The mapping keeps every distinction of the tree, so `TraceValue(json:)` gives back exactly
  /// the same value:
  ///
  /// | value | JSON |
  /// |---|---|
  /// | `.null`, `.bool` | `null`, `true`, `false` |
  /// | `.int`, `.uint` | an integer (read back as `.int` when it fits `Int64`, else `.uint`) |
  /// | `.double` | shortest round-trip decimal, always with `.` or an exponent: `1.0`, `1e-05` |
  /// | non-finite `.double` | `{"$double":"nan"}`, `{"$double":"inf"}`, `{"$double":"-inf"}` |
  /// | other NaN bits | `{"$double":"0x7ff8000000000001"}` (the bit pattern in hex) |
  /// | `.string` | a JSON string; control characters, U+2028 and U+2029 escaped |
  /// | `.bytes` | `{"$bytes":"<standard base64 with padding>"}` |
  /// | `.array` | an array |
  /// | `.object` | an object, keys in order; a key beginning with `$` gets one more `$` in front |
  /// | `.enumCase` | `{"$case":"name", <fields inline>}`: `{"$case":"picked","_0":"2026-05-12"}` |
  /// | `.reflected` | `{"$reflected":"TypeName","value":<value>}` |
  ///
  /// ```swift
  /// var buffer: [UInt8] = []
  /// TraceValue.object([TraceField("a", .double(1)), TraceField("$b", .null)])
  ///   .writeJSON(into: &buffer)
  /// print(String(decoding: buffer, as: UTF8.self))  // {"a":1.0,"$$b":null}
  /// ```
  public func writeJSON(into buffer: inout [UInt8]) {
    write(into: &buffer)
  }

  /// Appends the JSON form of the value to `buffer`, as `writeJSON(into:)` appends it to an
  /// array (for a writer that writes many values one after another: see `JSONBuffer`).
  package func writeJSON(into buffer: inout JSONBuffer) {
    write(into: &buffer)
  }

  func write<Output: JSONOutput & ~Copyable>(into buffer: inout Output) {
    switch self {
    case .null:
      JSONWriter.appendASCII("null", into: &buffer)
    case .bool(let value):
      JSONWriter.appendASCII(value ? "true" : "false", into: &buffer)
    case .int(let value):
      JSONWriter.writeInt(value, into: &buffer)
    case .uint(let value):
      JSONWriter.writeUInt(value, into: &buffer)
    case .double(let value):
      JSONWriter.writeDouble(value, into: &buffer)
    case .string(let value):
      JSONWriter.writeString(value, escapingDollar: false, into: &buffer)
    case .bytes(let value):
      JSONWriter.appendASCII("{\"$bytes\":\"", into: &buffer)
      Base64.encode(value, into: &buffer)
      JSONWriter.appendASCII("\"}", into: &buffer)
    case .array(let elements):
      buffer.appendByte(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { buffer.appendByte(UInt8(ascii: ",")) }
        first = false
        element.write(into: &buffer)
      }
      buffer.appendByte(UInt8(ascii: "]"))
    case .object(let fields):
      buffer.appendByte(UInt8(ascii: "{"))
      JSONWriter.writeFields(fields, leadingComma: false, into: &buffer)
      buffer.appendByte(UInt8(ascii: "}"))
    case .enumCase(let name, let fields):
      JSONWriter.appendASCII("{\"$case\":", into: &buffer)
      JSONWriter.writeString(name, escapingDollar: false, into: &buffer)
      JSONWriter.writeFields(fields, leadingComma: true, into: &buffer)
      buffer.appendByte(UInt8(ascii: "}"))
    case .reflected(let typeName, let value):
      JSONWriter.appendASCII("{\"$reflected\":", into: &buffer)
      JSONWriter.writeString(typeName, escapingDollar: false, into: &buffer)
      JSONWriter.appendASCII(",\"value\":", into: &buffer)
      value.write(into: &buffer)
      buffer.appendByte(UInt8(ascii: "}"))
    }
  }

  /// Writes an object's key as `writeJSON` writes the keys of `.object` (a leading `$`
  /// doubled), with its colon: for writers that assemble an object's JSON from cached parts.
  ///
  /// ```swift
  /// var buffer = JSONBuffer()
  /// TraceValue.writeJSONKey("$b", into: &buffer)  // "$$b":
  /// ```
  package static func writeJSONKey(_ key: String, into buffer: inout JSONBuffer) {
    JSONWriter.writeString(key, escapingDollar: true, into: &buffer)
    buffer.appendByte(UInt8(ascii: ":"))
  }

  /// The JSON form of the value as a string (see `writeJSON(into:)` for the mapping).
  ///
  /// ```swift
  /// print(TraceValue.enumCase("loaded", [TraceField("_0", .int(3))]).jsonString)
  /// // {"$case":"loaded","_0":3}
  /// ```
  public var jsonString: String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(64)
    writeJSON(into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Reads a value from its JSON form (see `writeJSON(into:)` for the mapping).
  ///
  /// ```swift
  /// let value = try TraceValue(json: Array(#"{"$bytes":"AQI="}"#.utf8))
  /// print(value == .bytes([1, 2]))  // true
  /// ```
  ///
  /// - Parameter json: UTF-8 text holding exactly one JSON value, optionally surrounded by
  ///   whitespace.
  /// - Throws: `TraceValueError` with the byte offset and what was expected there.
  public init(json: [UInt8]) throws(TraceValueError) {
    self = try json.withUnsafeBufferPointer { (bytes) throws(TraceValueError) -> TraceValue in
      var parser = JSONParser(bytes: bytes, offset: 0)
      parser.skipWhitespace()
      let value = try parser.parseValue()
      parser.skipWhitespace()
      if parser.offset != bytes.count {
        throw parser.error("expected end of input after the value")
      }
      return value
    }
  }

  /// Reads a value from its JSON form given as a string.
  ///
  /// ```swift
  /// print(try TraceValue(json: "[1, 2.5]"))  // [1, 2.5]
  /// ```
  public init(json: String) throws(TraceValueError) {
    try self.init(json: Array(json.utf8))
  }
}

/// The byte-level JSON writer shared by `TraceValue` and the path printer. It writes into any
/// `JSONOutput`: a byte array, or a `JSONBuffer`.
enum JSONWriter {
  @inline(__always)
  static func appendASCII<Output: JSONOutput & ~Copyable>(
    _ text: StaticString, into buffer: inout Output
  ) {
    text.withUTF8Buffer { buffer.appendBytes($0) }
  }

  static func writeFields<Output: JSONOutput & ~Copyable>(
    _ fields: [TraceField], leadingComma: Bool, into buffer: inout Output
  ) {
    var comma = leadingComma
    for field in fields {
      if comma { buffer.appendByte(UInt8(ascii: ",")) }
      comma = true
      writeString(field.key, escapingDollar: true, into: &buffer)
      buffer.appendByte(UInt8(ascii: ":"))
      field.value.write(into: &buffer)
    }
  }

  static func writeInt<Output: JSONOutput & ~Copyable>(_ value: Int64, into buffer: inout Output) {
    if value < 0 {
      buffer.appendByte(UInt8(ascii: "-"))
    }
    writeUInt(value.magnitude, into: &buffer)
  }

  static func writeUInt<Output: JSONOutput & ~Copyable>(_ value: UInt64, into buffer: inout Output)
  {
    if value < 10 {
      buffer.appendByte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    // Digits are produced backwards into a 20-byte scratch tuple, then appended in one go.
    var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &scratch) { raw in
      let digits = raw.bindMemory(to: UInt8.self)
      var remaining = value
      var index = 20
      while remaining > 0 {
        index -= 1
        digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
        remaining /= 10
      }
      buffer.appendBytes(UnsafeBufferPointer(rebasing: digits[index..<20]))
    }
  }

  static func writeDouble<Output: JSONOutput & ~Copyable>(
    _ value: Double, into buffer: inout Output
  ) {
    if value.isFinite {
      // Swift's description is the shortest text that reads back to the same bits, and it
      // always has a '.' or an exponent ("1.0", "1e-05"), so it cannot read back as an integer.
      var text = value.description
      text.withUTF8 { buffer.appendBytes($0) }
      return
    }
    appendASCII("{\"$double\":\"", into: &buffer)
    if value.isNaN {
      if value.bitPattern == Double.nan.bitPattern {
        appendASCII("nan", into: &buffer)
      } else {
        appendASCII("0x", into: &buffer)
        appendHex(value.bitPattern, digits: 16, into: &buffer)
      }
    } else {
      appendASCII(value < 0 ? "-inf" : "inf", into: &buffer)
    }
    appendASCII("\"}", into: &buffer)
  }

  static func appendHex<Output: JSONOutput & ~Copyable>(
    _ value: UInt64, digits: Int, into buffer: inout Output
  ) {
    var shift = (digits - 1) * 4
    while shift >= 0 {
      let nibble = UInt8(truncatingIfNeeded: (value >> UInt64(shift)) & 0xF)
      buffer.appendByte(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
      shift -= 4
    }
  }

  /// Writes a quoted JSON string. With `escapingDollar`, a string starting with `$` gets a second
  /// `$` in front, which is how object keys stay apart from the `$case`/`$bytes`/… markers.
  static func writeString<Output: JSONOutput & ~Copyable>(
    _ string: String, escapingDollar: Bool, into buffer: inout Output
  ) {
    // The string's own bytes where it has them (native and small strings): `withUTF8` needs a
    // mutable copy, which cost a retain, a release and a uniqueness check per string.
    let written: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
      writeQuoted(bytes, escapingDollar: escapingDollar, into: &buffer)
    }
    if written == nil {
      var string = string
      string.withUTF8 { writeQuoted($0, escapingDollar: escapingDollar, into: &buffer) }
    }
  }

  /// Writes `bytes` (UTF-8) as a quoted JSON string, escaped as `writeJSON` documents, with a
  /// second `$` in front when `escapingDollar` and the first byte is `$`.
  @inline(__always)
  static func writeQuoted<Output: JSONOutput & ~Copyable>(
    _ bytes: UnsafeBufferPointer<UInt8>, escapingDollar: Bool, into buffer: inout Output
  ) {
    buffer.appendByte(UInt8(ascii: "\""))
    if escapingDollar, bytes.first == UInt8(ascii: "$") {
      buffer.appendByte(UInt8(ascii: "$"))
    }
    // Most strings (keys, ids, names) need no escape: one scan, then one copy. The scan cost
    // about a third of the byte-by-byte writer's for the strings of a todo.
    if isPlain(bytes) {
      buffer.appendBytes(bytes)
    } else {
      writeEscaped(bytes, into: &buffer)
    }
    buffer.appendByte(UInt8(ascii: "\""))
  }

  /// Whether none of the bytes needs `writeEscaped`'s byte-by-byte look (see `plainWord`).
  /// Eight bytes at a time, the last word overlapping the one before; a string shorter than a
  /// word is read into one, padded with spaces.
  @inline(__always)
  static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    if count < 8 {
      var word: UInt64 = 0x2020_2020_2020_2020
      for index in 0..<count {
        word = word << 8 | UInt64(base[index])
      }
      return plainWord(word)
    }
    let raw = UnsafeRawPointer(base)
    var index = 0
    while index &+ 8 < count {
      if !plainWord(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
      index &+= 8
    }
    return plainWord(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
  }

  private static func writeEscaped<Output: JSONOutput & ~Copyable>(
    _ bytes: UnsafeBufferPointer<UInt8>, into buffer: inout Output
  ) {
    guard let base = bytes.baseAddress else { return }
    var runStart = 0
    var index = 0
    let count = bytes.count
    while index < count {
      // Eight bytes at a time while none of them needs a look (see `plainWord`): the
      // byte-by-byte test below cost about ten instructions a byte. A word that does need one
      // (or the last few bytes) is looked at byte by byte.
      if index &+ 8 <= count,
        plainWord(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      {
        index &+= 8
        continue
      }
      let end = Swift.min(index &+ 8, count)
      while index < end {
        let byte = bytes[index]
        // Printable ASCII other than '"' and '\\' (one range check) and non-ASCII bytes
        // other than 0xE2 (which may start U+2028/U+2029) pass through unchanged.
        if byte &- 0x20 < 0x5F ? byte != 0x22 && byte != 0x5C : byte >= 0x80 && byte != 0xE2 {
          index += 1
          continue
        }
        if byte == 0xE2 {
          // U+2028 and U+2029 (E2 80 A8/A9) are valid JSON but end lines in JavaScript.
          if index + 2 < count, bytes[index + 1] == 0x80,
            bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
          {
            buffer.appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            appendASCII(bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", into: &buffer)
            index += 3
            runStart = index
          } else {
            index += 1
          }
          continue
        }
        buffer.appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        switch byte {
        case 0x22: appendASCII("\\\"", into: &buffer)
        case 0x5C: appendASCII("\\\\", into: &buffer)
        case 0x0A: appendASCII("\\n", into: &buffer)
        case 0x0D: appendASCII("\\r", into: &buffer)
        case 0x09: appendASCII("\\t", into: &buffer)
        case 0x08: appendASCII("\\b", into: &buffer)
        case 0x0C: appendASCII("\\f", into: &buffer)
        default:
          appendASCII("\\u00", into: &buffer)
          appendHex(UInt64(byte), digits: 2, into: &buffer)
        }
        index += 1
        runStart = index
      }
    }
    buffer.appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
  }

  /// Whether none of a word's eight bytes needs `writeEscaped`'s byte-by-byte look: no control
  /// character (below 0x20, and 0x7F), no quote, no backslash and no 0xE2 (which may start
  /// U+2028 or U+2029).
  ///
  /// Each byte's low seven bits are tested apart from its top bit, so no sum carries into the
  /// next byte and every test is exact; the tests are combined without branches.
  ///
  /// ```swift
  /// JSONWriter.plainWord(0x6867_6665_6463_6261)  // true: "abcdefgh"
  /// JSONWriter.plainWord(0x6867_6665_6422_6261)  // false: a quote
  /// ```
  @inline(__always)
  static func plainWord(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let low = word & ~highs
    // Each sum's top bit, per byte: set when the low seven bits are not the value.
    @inline(__always) func differs(_ value: UInt64) -> UInt64 {
      (low ^ (ones &* value)) &+ ones &* 0x7F
    }
    // ASCII: at least 0x20, not 0x7F, not a quote, not a backslash. Others: not 0xE2.
    let ascii = (low &+ ones &* 0x60) & ~(low &+ ones) & differs(0x22) & differs(0x5C)
    let plain = (ascii & ~word) | (differs(0x62) & word)
    return plain & highs == highs
  }
}

/// A recursive-descent JSON reader over UTF-8 bytes that builds `TraceValue`s directly.
struct JSONParser {
  /// Deeper input is refused rather than risking the stack of a background thread.
  static let maximumDepth = 512

  let bytes: UnsafeBufferPointer<UInt8>
  var offset: Int
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>, offset: Int) {
    self.bytes = bytes
    self.offset = offset
  }

  func error(_ reason: String, at position: Int? = nil) -> TraceValueError {
    TraceValueError(offset: position ?? offset, reason: reason)
  }

  @inline(__always)
  var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x0A, 0x0D, 0x09: offset += 1
      default: return
      }
    }
  }

  mutating func expect(_ byte: UInt8, _ what: String) throws(TraceValueError) {
    skipWhitespace()
    guard current == byte else { throw error("expected \(what)") }
    offset += 1
  }

  mutating func expectLiteral(_ literal: StaticString) throws(TraceValueError) {
    let start = offset
    let matches = literal.withUTF8Buffer { word -> Bool in
      guard bytes.count - offset >= word.count else { return false }
      for index in 0..<word.count where bytes[offset + index] != word[index] { return false }
      return true
    }
    guard matches else { throw error("expected '\(literal)'", at: start) }
    offset += literal.utf8CodeUnitCount
  }

  mutating func parseValue() throws(TraceValueError) -> TraceValue {
    skipWhitespace()
    guard let byte = current else { throw error("expected a value, found end of input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw error("expected a value")
    }
  }

  private mutating func enter() throws(TraceValueError) {
    depth += 1
    if depth > Self.maximumDepth {
      throw error("nesting deeper than \(Self.maximumDepth) levels")
    }
  }

  private mutating func parseArray() throws(TraceValueError) -> TraceValue {
    try enter()
    defer { depth -= 1 }
    offset += 1
    var elements: [TraceValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      offset += 1
      return .array(elements)
    }
    while true {
      elements.append(try parseValue())
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): offset += 1
      case UInt8(ascii: "]"):
        offset += 1
        return .array(elements)
      default: throw error("expected ',' or ']' in array")
      }
    }
  }

  private mutating func parseObject() throws(TraceValueError) -> TraceValue {
    try enter()
    defer { depth -= 1 }
    offset += 1
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      offset += 1
      return .object([])
    }
    let keyStart = offset
    let (firstKey, isMarker) = try parseKey()
    try expect(UInt8(ascii: ":"), "':' after object key")
    if !isMarker {
      var fields = [TraceField(firstKey, try parseValue())]
      try parseMoreFields(into: &fields)
      return .object(fields)
    }
    switch firstKey {
    case "$case":
      let name = try parseStringValue("a string case name after \"$case\"")
      var fields: [TraceField] = []
      try parseMoreFields(into: &fields)
      return .enumCase(name, fields)
    case "$bytes":
      let start = offset
      let text = try parseStringValue("a base64 string after \"$bytes\"")
      guard let decoded = Base64.decode(text) else {
        throw error("expected standard base64 with padding after \"$bytes\"", at: start)
      }
      try expect(UInt8(ascii: "}"), "'}' after the \"$bytes\" value")
      return .bytes(decoded)
    case "$double":
      let start = offset
      let text = try parseStringValue("a string after \"$double\"")
      guard let value = Self.nonFiniteDouble(text) else {
        throw error("expected \"nan\", \"inf\", \"-inf\" or a 0x bit pattern", at: start)
      }
      try expect(UInt8(ascii: "}"), "'}' after the \"$double\" value")
      return .double(value)
    case "$reflected":
      let typeName = try parseStringValue("a string type name after \"$reflected\"")
      try expect(UInt8(ascii: ","), "',' then \"value\" after the reflected type name")
      skipWhitespace()
      let valueKeyStart = offset
      guard try parseString() == "value" else {
        throw error("expected the key \"value\" in a reflected value", at: valueKeyStart)
      }
      try expect(UInt8(ascii: ":"), "':' after object key")
      let value = try parseValue()
      try expect(UInt8(ascii: "}"), "'}' after a reflected value")
      return .reflected(typeName: typeName, value)
    default:
      throw error(
        "unknown marker key \(TraceValue.string(firstKey).jsonString)"
          + " (a key starting with '$' is written with '$$')",
        at: keyStart
      )
    }
  }

  /// Reads `, "key": value` pairs until the closing brace.
  private mutating func parseMoreFields(into fields: inout [TraceField]) throws(TraceValueError) {
    while true {
      skipWhitespace()
      switch current {
      case UInt8(ascii: "}"):
        offset += 1
        return
      case UInt8(ascii: ","):
        offset += 1
        skipWhitespace()
        let keyStart = offset
        let (key, isMarker) = try parseKey()
        if isMarker {
          throw error(
            "unexpected marker key \(TraceValue.string(key).jsonString)"
              + " (a key starting with '$' is written with '$$')",
            at: keyStart
          )
        }
        try expect(UInt8(ascii: ":"), "':' after object key")
        fields.append(TraceField(key, try parseValue()))
      default:
        throw error("expected ',' or '}' in object")
      }
    }
  }

  /// Reads an object key. A key starting with `$$` is an escaped user key (one `$` dropped);
  /// a key starting with a single `$` is a marker.
  private mutating func parseKey() throws(TraceValueError) -> (String, isMarker: Bool) {
    guard current == UInt8(ascii: "\"") else { throw error("expected a string object key") }
    let key = try parseString()
    var utf8 = key.utf8[...]
    guard utf8.first == UInt8(ascii: "$") else { return (key, false) }
    utf8.removeFirst()
    if utf8.first == UInt8(ascii: "$") {
      return (String(Substring(utf8)), false)
    }
    return (key, true)
  }

  private mutating func parseStringValue(_ what: String) throws(TraceValueError) -> String {
    skipWhitespace()
    guard current == UInt8(ascii: "\"") else { throw error("expected \(what)") }
    return try parseString()
  }

  static func nonFiniteDouble(_ text: String) -> Double? {
    switch text {
    case "nan": return .nan
    case "inf": return .infinity
    case "-inf": return -.infinity
    default:
      let utf8 = text.utf8
      guard utf8.count == 18, text.hasPrefix("0x"),
        let bits = UInt64(text.dropFirst(2), radix: 16)
      else { return nil }
      let value = Double(bitPattern: bits)
      // Finite doubles have a decimal form; only NaN payloads travel as bit patterns.
      return value.isNaN ? value : nil
    }
  }

  /// Reads a quoted string starting at the opening quote.
  mutating func parseString() throws(TraceValueError) -> String {
    let start = offset
    offset += 1
    let contentStart = offset
    // Fast path: no escapes, so the content is the bytes between the quotes.
    var seen: UInt8 = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])
        offset += 1
        return try Self.makeString(content, isASCII: seen < 0x80, at: contentStart)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("unescaped control character in string") }
      seen |= byte
      offset += 1
    }
    if offset >= bytes.count { throw error("unterminated string", at: start) }
    var scratch = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<offset]))
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return try scratch.withUnsafeBufferPointer { (content) throws(TraceValueError) in
          try Self.makeString(content, isASCII: false, at: contentStart)
        }
      case UInt8(ascii: "\\"):
        try parseEscape(into: &scratch)
      case 0..<0x20:
        throw error("unescaped control character in string")
      default:
        scratch.append(byte)
        offset += 1
      }
    }
    throw error("unterminated string", at: start)
  }

  /// ASCII (the common case) needs no validation; anything else is validated, not repaired:
  /// a trace with broken UTF-8 is reported, never silently altered.
  private static func makeString(
    _ content: UnsafeBufferPointer<UInt8>, isASCII: Bool, at position: Int
  ) throws(TraceValueError) -> String {
    if isASCII { return String(decoding: content, as: UTF8.self) }
    guard let string = String(validating: content, as: UTF8.self) else {
      throw TraceValueError(offset: position, reason: "invalid UTF-8 in string")
    }
    return string
  }

  private mutating func parseEscape(into scratch: inout [UInt8]) throws(TraceValueError) {
    let escapeStart = offset
    offset += 1
    guard let byte = current else { throw error("unterminated string") }
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): scratch.append(0x22)
    case UInt8(ascii: "\\"): scratch.append(0x5C)
    case UInt8(ascii: "/"): scratch.append(0x2F)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = UInt32(try parseHex4())
      if (0xD800...0xDBFF).contains(scalar) {
        guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"),
          bytes[offset + 1] == UInt8(ascii: "u")
        else { throw error("expected a low surrogate escape after a high surrogate") }
        offset += 2
        let low = UInt32(try parseHex4())
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error("expected a low surrogate (\\uDC00-\\uDFFF)", at: offset - 6)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw error("unpaired low surrogate escape", at: escapeStart)
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw error("invalid unicode escape", at: escapeStart)
      }
      Self.appendUTF8(unicode, into: &scratch)
    default:
      throw error("invalid escape sequence", at: escapeStart)
    }
  }

  private static func appendUTF8(_ scalar: Unicode.Scalar, into scratch: inout [UInt8]) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
      scratch.append(UInt8(value))
    case 0x80..<0x800:
      scratch.append(0xC0 | UInt8(value >> 6))
      scratch.append(0x80 | UInt8(value & 0x3F))
    case 0x800..<0x10000:
      scratch.append(0xE0 | UInt8(value >> 12))
      scratch.append(0x80 | UInt8((value >> 6) & 0x3F))
      scratch.append(0x80 | UInt8(value & 0x3F))
    default:
      scratch.append(0xF0 | UInt8(value >> 18))
      scratch.append(0x80 | UInt8((value >> 12) & 0x3F))
      scratch.append(0x80 | UInt8((value >> 6) & 0x3F))
      scratch.append(0x80 | UInt8(value & 0x3F))
    }
  }

  private mutating func parseHex4() throws(TraceValueError) -> UInt16 {
    guard bytes.count - offset >= 4 else { throw error("expected 4 hex digits after \\u") }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("expected 4 hex digits after \\u")
      }
      value = value << 4 | UInt16(digit)
      offset += 1
    }
    return value
  }

  private mutating func parseNumber() throws(TraceValueError) -> TraceValue {
    let start = offset
    let negative = current == UInt8(ascii: "-")
    if negative { offset += 1 }
    guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
      throw error("expected a digit")
    }
    var magnitude: UInt64 = 0
    var overflow = false
    if first == UInt8(ascii: "0") {
      offset += 1
    } else {
      while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
        magnitude = sum
        overflow = overflow || o1 || o2
        offset += 1
      }
    }
    var isInteger = true
    if current == UInt8(ascii: ".") {
      isInteger = false
      offset += 1
      try skipDigits("a digit after '.'")
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isInteger = false
      offset += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
      try skipDigits("a digit in the exponent")
    }
    if isInteger && !overflow {
      if !negative {
        return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
      }
      if magnitude <= UInt64(Int64.max) { return .int(-Int64(magnitude)) }
      if magnitude == UInt64(Int64.max) + 1 { return .int(.min) }
    }
    // Fractions, exponents and integers beyond 64 bits read as the nearest double.
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    guard let value = Double(text) else { throw error("invalid number", at: start) }
    return .double(value)
  }

  private mutating func skipDigits(_ what: String) throws(TraceValueError) {
    guard let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
      throw error("expected \(what)")
    }
    while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
      offset += 1
    }
  }
}
