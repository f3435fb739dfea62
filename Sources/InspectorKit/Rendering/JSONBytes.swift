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
  private(set) var bytes: [UInt8] = []
  /// A value's JSON, reused from one value to the next.
  private var scratch: [UInt8] = []

  init(capacity: Int = 1 << 16) {
    bytes.reserveCapacity(capacity)
  }

  var text: String { String(decoding: bytes, as: UTF8.self) }

  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// What goes before a step: a newline, after a comma unless it is the first.
  mutating func newline(first: Bool) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\n"))
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
      append(ascii: "\(entry.wallTime)")
    } else {
      literal("null")
    }
    literal(",\"origin\":")
    string(entry.origin.storageText)
    literal(",\"actionPath\":")
    string(entry.actionPath)
    literal(",\"changedPaths\":[")
    for (index, path) in entry.changedPaths.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      string(path)
    }
    literal("],\"stateHash\":\"")
    hex(entry.stateHash)
    literal("\",\"reducerNanos\":")
    uint(entry.reducerNanos)
    literal(",\"action\":")
    bytes.append(contentsOf: actionJSON)
    literal(",\"changes\":[")
    for (index, change) in changes.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
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
      bytes.append(UInt8(ascii: "}"))
    }
    literal("]}")
  }

  private mutating func literal(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Text known to be ASCII without quotes or controls (numbers).
  private mutating func append(ascii text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  private mutating func string(_ text: String) {
    if EscapedText.isPrintableASCII(text, quotable: true) {
      bytes.append(UInt8(ascii: "\""))
      var text = text
      text.withUTF8 { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
    } else {
      var quoted = JSONOutput.quoted(text)
      quoted.withUTF8 { bytes.append(contentsOf: $0) }
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
      bytes.append(contentsOf: scratch)
      return
    }
    var escaped = JSONOutput.escapingTerminalControls(String(decoding: scratch, as: UTF8.self))
    escaped.withUTF8 { bytes.append(contentsOf: $0) }
  }

  private mutating func int(_ value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      uint(value.magnitude)
    } else {
      uint(UInt64(value))
    }
  }

  private mutating func uint(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      bytes.append(contentsOf: buffer[(24 - count)...])
    }
  }

  /// 16 lowercase hex digits, as `HashText.hex`.
  private mutating func hex(_ value: UInt64) {
    let digits: StaticString = "0123456789abcdef"
    digits.withUTF8Buffer { table in
      for shift in stride(from: 60, through: 0, by: -4) {
        bytes.append(table[Int((value >> UInt64(shift)) & 0xF)])
      }
    }
  }
}
