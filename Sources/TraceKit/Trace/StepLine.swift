/// One JSON line of a payload chunk: a step's action, its state changes and its dependency
/// reads. Lines always begin with `{"step":N,` so a reader can find a step without parsing
/// the rest of the line.
///
/// ```json
/// {"step":7,"action":{"$case":"increment"},"changes":[…],"deps":[{"key":"uuid","value":"…"}]}
/// ```
struct StepLine: Sendable {
  var step: Int
  var action: TraceValue
  var changes: [TraceChange]
  var dependencies: [DependencyRead]

  struct Failure: Error, Sendable {
    var reason: String
  }

  /// Appends the line, newline included. `encoder` caches the text of repeated paths.
  static func write(_ record: StepRecord, into buffer: inout [UInt8], encoder: inout Encoder) {
    append("{\"step\":", into: &buffer)
    appendInt(record.step, into: &buffer)
    append(",\"action\":", into: &buffer)
    record.action.writeJSON(into: &buffer)
    append(",\"changes\":[", into: &buffer)
    var first = true
    for change in record.changes {
      if !first { buffer.append(UInt8(ascii: ",")) }
      first = false
      encoder.writeChange(change, into: &buffer)
    }
    buffer.append(UInt8(ascii: "]"))
    if !record.dependencies.isEmpty {
      append(",\"deps\":[", into: &buffer)
      first = true
      for read in record.dependencies {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        append("{\"key\":", into: &buffer)
        TraceValue.string(read.key).writeJSON(into: &buffer)
        append(",\"value\":", into: &buffer)
        read.value.writeJSON(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
      }
      buffer.append(UInt8(ascii: "]"))
    }
    append("}\n", into: &buffer)
  }

  /// Writes changes in exactly the bytes `change.jsonValue.writeJSON(into:)` gives
  /// (`{"op":…,"path":…,"value":…}`), without building the intermediate value, and remembers
  /// the JSON text of recent paths: a recording changes the same few paths again and again.
  struct Encoder {
    private var paths: [TracePath: [UInt8]] = [:]
    private var pathLists: [[String]: [UInt8]] = [:]
    /// Bounds the caches: a recording of ever-new paths (ids) must not grow memory.
    private static let cacheLimit = 4_096

    init() {}

    mutating func writeChange(_ change: TraceChange, into buffer: inout [UInt8]) {
      switch change {
      case .set(let path, let value):
        append("{\"op\":\"set\",\"path\":", into: &buffer)
        writePath(path, into: &buffer)
        append(",\"value\":", into: &buffer)
        value.writeJSON(into: &buffer)
      case .remove(let path):
        append("{\"op\":\"remove\",\"path\":", into: &buffer)
        writePath(path, into: &buffer)
      case .insert(let path, let value):
        append("{\"op\":\"insert\",\"path\":", into: &buffer)
        writePath(path, into: &buffer)
        append(",\"value\":", into: &buffer)
        value.writeJSON(into: &buffer)
      }
      buffer.append(UInt8(ascii: "}"))
    }

    private mutating func writePath(_ path: TracePath, into buffer: inout [UInt8]) {
      if let cached = paths[path] {
        buffer.append(contentsOf: cached)
        return
      }
      var text: [UInt8] = []
      TraceValue.string(path.description).writeJSON(into: &text)
      if paths.count >= Self.cacheLimit { paths.removeAll(keepingCapacity: true) }
      paths[path] = text
      buffer.append(contentsOf: text)
    }

    /// The JSON array of strings stored in the `changed_paths` column.
    mutating func writeStringArray(_ strings: [String], into buffer: inout [UInt8]) {
      if let cached = pathLists[strings] {
        buffer.append(contentsOf: cached)
        return
      }
      var text: [UInt8] = [UInt8(ascii: "[")]
      var first = true
      for string in strings {
        if !first { text.append(UInt8(ascii: ",")) }
        first = false
        TraceValue.string(string).writeJSON(into: &text)
      }
      text.append(UInt8(ascii: "]"))
      if pathLists.count >= Self.cacheLimit { pathLists.removeAll(keepingCapacity: true) }
      pathLists[strings] = text
      buffer.append(contentsOf: text)
    }
  }

  /// Reads a whole line (without its newline).
  init(parsing line: UnsafeRawBufferPointer) throws(Failure) {
    let value: TraceValue
    do {
      value = try TraceValue(json: Array(line))
    } catch {
      throw Failure(reason: error.description)
    }
    guard case .object(let fields) = value else { throw Failure(reason: "line is not an object") }
    var step: Int?
    var action: TraceValue?
    var changes: [TraceChange]?
    var dependencies: [DependencyRead] = []
    for field in fields {
      switch field.key {
      case "step":
        guard case .int(let number) = field.value, let number = Int(exactly: number) else {
          throw Failure(reason: "'step' is not an integer")
        }
        step = number
      case "action":
        action = field.value
      case "changes":
        guard case .array(let elements) = field.value else {
          throw Failure(reason: "'changes' is not an array")
        }
        var decoded: [TraceChange] = []
        decoded.reserveCapacity(elements.count)
        for element in elements { decoded.append(try Self.change(element)) }
        changes = decoded
      case "deps":
        guard case .array(let elements) = field.value else {
          throw Failure(reason: "'deps' is not an array")
        }
        for element in elements {
          guard case .object(let pair) = element, pair.count == 2, pair[0].key == "key",
            case .string(let key) = pair[0].value, pair[1].key == "value"
          else { throw Failure(reason: "a dependency is not {\"key\":…,\"value\":…}") }
          dependencies.append(DependencyRead(key: key, value: pair[1].value))
        }
      default:
        // Later minor versions may add fields; a reader of this version skips them.
        continue
      }
    }
    guard let step, let action, let changes else {
      throw Failure(reason: "line lacks 'step', 'action' or 'changes'")
    }
    self.step = step
    self.action = action
    self.changes = changes
    self.dependencies = dependencies
  }

  /// Only the changes of a line, without building its action: replaying a trace reads
  /// every line for its changes alone. Falls back to the full parse for a line written in
  /// another member order.
  static func changes(parsing line: UnsafeRawBufferPointer) throws(Failure) -> [TraceChange] {
    guard let range = changesRange(line) else { return try StepLine(parsing: line).changes }
    let value: TraceValue
    do {
      value = try TraceValue(json: Array(UnsafeRawBufferPointer(rebasing: line[range])))
    } catch {
      throw Failure(reason: error.description)
    }
    guard case .array(let elements) = value else {
      throw Failure(reason: "'changes' is not an array")
    }
    var changes: [TraceChange] = []
    changes.reserveCapacity(elements.count)
    for element in elements { changes.append(try change(element)) }
    return changes
  }

  /// The byte range of the `changes` array in `{"step":N,"action":…,"changes":[…]…}`.
  private static func changesRange(_ line: UnsafeRawBufferPointer) -> Range<Int>? {
    guard peekStep(line) != nil else { return nil }
    var index = 0
    while index < line.count, line[index] != UInt8(ascii: ",") { index += 1 }
    guard let afterActionKey = expect(",\"action\":", in: line, at: index),
      let afterAction = skipValue(line, from: afterActionKey),
      let start = expect(",\"changes\":", in: line, at: afterAction),
      let end = skipValue(line, from: start)
    else { return nil }
    return start..<end
  }

  private static func expect(_ text: StaticString, in line: UnsafeRawBufferPointer, at index: Int)
    -> Int?
  {
    let count = text.utf8CodeUnitCount
    guard index + count <= line.count else { return nil }
    for offset in 0..<count where line[index + offset] != text.utf8Start[offset] {
      return nil
    }
    return index + count
  }

  /// The index just after the JSON value starting at `start` (no whitespace: this writer
  /// writes none), or nil when the bytes are not one well-bracketed value.
  static func skipValue(_ line: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var index = start
    var depth = 0
    repeat {
      guard index < line.count else { return nil }
      switch line[index] {
      case UInt8(ascii: "\""):
        index += 1
        while index < line.count, line[index] != UInt8(ascii: "\"") {
          index += line[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard index < line.count else { return nil }
        index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        guard depth >= 0 else { return nil }
        index += 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        // Between members or elements: only inside a container.
        guard depth > 0 else { return nil }
        index += 1
      default:
        // A scalar (number, true, false, null) runs to the next delimiter.
        while index < line.count {
          let byte = line[index]
          if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "\"")
          {
            break
          }
          index += 1
        }
        if depth == 0 { return index }
      }
    } while depth > 0
    return index
  }

  /// The step number at the start of a line (`{"step":N,`), without parsing the rest; nil when
  /// the line does not start that way.
  static func peekStep(_ line: UnsafeRawBufferPointer) -> Int? {
    let prefix: StaticString = "{\"step\":"
    let count = prefix.utf8CodeUnitCount
    guard line.count > count else { return nil }
    for index in 0..<count where line[index] != prefix.utf8Start[index] {
      return nil
    }
    var value = 0
    var index = count
    var digits = 0
    while index < line.count, line[index] >= 0x30, line[index] <= 0x39 {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(line[index] - 0x30))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      index += 1
      digits += 1
    }
    guard digits > 0, index < line.count, line[index] == UInt8(ascii: ",") else { return nil }
    return value
  }

  // MARK: The value model's JSON forms

  static func change(_ value: TraceValue) throws(Failure) -> TraceChange {
    do {
      return try TraceChange(jsonValue: value)
    } catch {
      throw Failure(reason: error.description)
    }
  }

  /// Applies a step's changes to the state in place.
  static func apply(_ changes: [TraceChange], to state: inout TraceValue) throws(Failure) {
    do {
      try TraceDiff.apply(changes, to: &state)
    } catch {
      throw Failure(reason: "a change does not apply: \(error.description)")
    }
  }

  // MARK: Bytes

  @inline(__always)
  static func append(_ text: StaticString, into buffer: inout [UInt8]) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  static func appendInt(_ value: Int, into buffer: inout [UInt8]) {
    if value == 0 {
      buffer.append(UInt8(ascii: "0"))
      return
    }
    var magnitude = value.magnitude
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { storage in
      while magnitude > 0 {
        storage[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      for index in stride(from: count - 1, through: 0, by: -1) {
        buffer.append(storage[index])
      }
    }
  }
}
