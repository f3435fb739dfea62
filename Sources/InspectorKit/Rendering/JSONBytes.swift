import TraceKit

/// The JSON of `export`'s steps written straight into bytes: the same text `JSONOutput` makes
/// (keys in order, strings escaped, values in TraceKit's JSON form with terminal controls
/// escaped), without building a `String` per field. A million steps are written in about a
/// second instead of several.
///
/// ```swift
/// var json = JSONBytes()
/// json.step(row, action: action, changes: changes)
/// json.text  // {"step":3,"nanos":1200000,…,"changes":[{"op":"set","path":"count","value":1}]}
/// ```
struct JSONBytes {
  /// The bytes written so far are `storage[..<count]`; the rest is room. Writing copies into
  /// the room (one capacity check and a `memcpy`), which costs a fraction of
  /// `Array.append(contentsOf:)` for the twenty-odd short pieces of a step.
  private var storage: [UInt8]
  /// How many bytes have been written.
  private(set) var count = 0
  /// A value's JSON, reused from one value to the next.
  private var scratch: [UInt8] = []

  init(capacity: Int = 1 << 16) {
    storage = [UInt8](repeating: 0, count: Swift.max(capacity, 16))
  }

  /// The bytes written, as an array.
  var bytes: [UInt8] { Array(storage[..<count]) }

  var text: String {
    String(decoding: storage[..<count], as: UTF8.self)
  }

  mutating func removeAll() {
    count = 0
  }

  /// Hands the bytes written to `out` in pieces of about 64 KiB, each cut before a character,
  /// not inside one: a large buffer turned into one `String` would be a fresh allocation the
  /// size of the buffer, whose pages are faulted in every time.
  func write(to out: inout some FlushingOutput) {
    let piece = 1 << 16
    storage.withUnsafeBufferPointer { bytes in
      var start = 0
      while start < count {
        var end = Swift.min(start + piece, count)
        // Back to the start of a character: a UTF-8 continuation byte is 0b10xxxxxx.
        while end < count, end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        out.write(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        start = end
      }
    }
  }

  /// What goes before a step: a newline, after a comma unless it is the first.
  mutating func newline(first: Bool) {
    if !first { byte(UInt8(ascii: ",")) }
    byte(UInt8(ascii: "\n"))
  }

  /// One step of `export`: the fields of `StepJSON`, then its action and changes.
  mutating func step(_ entry: StepRow, action: TraceValue, changes: [TraceChange]) {
    step(entry, actionJSON: Self.value(action), changes: changes)
  }

  /// `step(_:action:changes:)` with the action already written by `value(_:)`.
  mutating func step(_ entry: StepRow, actionJSON: [UInt8], changes: [TraceChange]) {
    literal("{\"step\":")
    int(Int64(entry.step))
    literal(",\"nanos\":")
    uint(entry.monotonicNanos)
    literal(",\"wallTime\":")
    if entry.wallTime.isFinite {
      append(ascii: entry.wallTime.description)
    } else {
      literal("null")
    }
    literal(",\"origin\":")
    string(entry.origin.storageText)
    literal(",\"actionPath\":")
    string(entry.actionPath)
    literal(",\"changedPaths\":[")
    for (index, path) in entry.changedPaths.enumerated() {
      if index > 0 { byte(UInt8(ascii: ",")) }
      string(path)
    }
    literal("],\"stateHash\":\"")
    hex(entry.stateHash)
    literal("\",\"reducerNanos\":")
    uint(entry.reducerNanos)
    literal(",\"action\":")
    actionJSON.withUnsafeBytes { write($0) }
    literal(",\"changes\":[")
    for (index, change) in changes.enumerated() {
      if index > 0 { byte(UInt8(ascii: ",")) }
      switch change {
      case .set(let path, let value):
        literal("{\"op\":\"set\",\"path\":")
        string(path.description)
        literal(",\"value\":")
        self.value(value)
      case .insert(let path, let value):
        literal("{\"op\":\"insert\",\"path\":")
        string(path.description)
        literal(",\"value\":")
        self.value(value)
      case .remove(let path):
        literal("{\"op\":\"remove\",\"path\":")
        string(path.description)
      }
      byte(UInt8(ascii: "}"))
    }
    literal("]}")
  }

  @inline(__always)
  private mutating func literal(_ text: StaticString) {
    write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  @inline(__always)
  private mutating func byte(_ value: UInt8) {
    if count == storage.count { grow(toHold: count + 1) }
    storage[count] = value
    count += 1
  }

  @inline(__always)
  private mutating func write(_ source: UnsafeRawBufferPointer) {
    guard let start = source.baseAddress else { return }
    let end = count + source.count
    if end > storage.count { grow(toHold: end) }
    storage.withUnsafeMutableBytes { target in
      (target.baseAddress! + count).copyMemory(from: start, byteCount: source.count)
    }
    count = end
  }

  /// At least doubles the room, so a long run of writes stays linear.
  private mutating func grow(toHold needed: Int) {
    storage.append(
      contentsOf: repeatElement(0, count: Swift.max(needed, 2 * storage.count) - storage.count))
  }

  /// Text known to be ASCII without quotes or controls (numbers).
  private mutating func append(ascii text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  private mutating func string(_ text: String) {
    if EscapedText.isPrintableASCII(text, quotable: true) {
      byte(UInt8(ascii: "\""))
      var text = text
      text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
      byte(UInt8(ascii: "\""))
    } else {
      var quoted = JSONOutput.quoted(text)
      quoted.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }
  }

  /// A value as `JSONOutput.value` writes it (see `value(_:)` below).
  static func value(_ value: TraceValue) -> [UInt8] {
    var json = JSONBytes(capacity: 64)
    json.value(value)
    return json.bytes
  }

  /// TraceKit's JSON form; bytes outside printable ASCII (only inside its strings) go through
  /// `JSONOutput.escapingTerminalControls`, as `JSONOutput.value` writes them.
  private mutating func value(_ value: TraceValue) {
    scratch.removeAll(keepingCapacity: true)
    value.writeJSON(into: &scratch)
    if !scratch.contains(where: { $0 < 0x20 || $0 >= 0x7F }) {
      let written = scratch
      written.withUnsafeBytes { write($0) }
      return
    }
    var escaped = JSONOutput.escapingTerminalControls(String(decoding: scratch, as: UTF8.self))
    escaped.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  private mutating func int(_ value: Int64) {
    if value < 0 {
      byte(UInt8(ascii: "-"))
      uint(value.magnitude)
    } else {
      uint(UInt64(value))
    }
  }

  private mutating func uint(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
    var digitCount = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[23 - digitCount] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        digitCount += 1
      } while rest > 0
      write(UnsafeRawBufferPointer(rebasing: buffer[(24 - digitCount)...]))
    }
  }

  /// 16 lowercase hex digits, as `HashText.hex`, appended at once.
  private mutating func hex(_ value: UInt64) {
    var digits: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      for index in 0..<16 {
        let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
        buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
      }
      write(UnsafeRawBufferPointer(buffer))
    }
  }
}
