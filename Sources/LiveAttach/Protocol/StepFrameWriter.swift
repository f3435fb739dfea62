import TraceKit

/// Writes a `step` message's JSON directly — the bytes `LiveMessage.step(record)`'s object
/// would write — without building that object, and remembers the text of the paths it wrote:
/// a live app changes the same few paths again and again.
///
/// ```swift
/// var writer = StepFrameWriter()
/// writer.write(record, into: &bytes)
/// // {"type":"step","step":7,"mono":1500,…,"hash":"00abcdef01234567","reducerNs":42}
/// ```
package struct StepFrameWriter {
  private var paths: [TracePath: [UInt8]] = [:]
  /// Bounds the cache: ever-new paths (ids) must not grow memory.
  private static let cacheLimit = 4_096

  package init() {}

  package mutating func write(_ record: StepRecord, into output: inout [UInt8]) {
    Self.append(#"{"type":"step","step":"#, to: &output)
    TraceValue.int(Int64(record.step)).writeJSON(into: &output)
    Self.append(#","mono":"#, to: &output)
    LiveObject.integer(record.monotonicNanos).writeJSON(into: &output)
    Self.append(#","wall":"#, to: &output)
    TraceValue.double(record.wallTime).writeJSON(into: &output)
    Self.append(#","origin":"#, to: &output)
    switch record.origin {
    case .user: Self.append(#""user""#, to: &output)
    default: TraceValue.string(record.origin.storageText).writeJSON(into: &output)
    }
    Self.append(#","actionPath":"#, to: &output)
    TraceValue.string(record.actionPath).writeJSON(into: &output)
    Self.append(#","action":"#, to: &output)
    record.action.writeJSON(into: &output)
    Self.append(#","changes":["#, to: &output)
    for (index, change) in record.changes.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      switch change {
      case .set(let path, let value):
        Self.append(#"{"op":"set","path":"#, to: &output)
        writePath(path, into: &output)
        Self.append(#","value":"#, to: &output)
        value.writeJSON(into: &output)
      case .remove(let path):
        Self.append(#"{"op":"remove","path":"#, to: &output)
        writePath(path, into: &output)
      case .insert(let path, let value):
        Self.append(#"{"op":"insert","path":"#, to: &output)
        writePath(path, into: &output)
        Self.append(#","value":"#, to: &output)
        value.writeJSON(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
    Self.append(#"],"changedPaths":["#, to: &output)
    for (index, path) in record.changedPaths.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      TraceValue.string(path).writeJSON(into: &output)
    }
    Self.append(#"],"hash":""#, to: &output)
    Self.appendHex(record.stateHash, to: &output)
    Self.append(#"","reducerNs":"#, to: &output)
    LiveObject.integer(record.reducerNanos).writeJSON(into: &output)
    if !record.dependencies.isEmpty {
      Self.append(#","deps":"#, to: &output)
      LiveMessage.dependencies(record).writeJSON(into: &output)
    }
    output.append(UInt8(ascii: "}"))
  }

  private mutating func writePath(_ path: TracePath, into output: inout [UInt8]) {
    if let cached = paths[path] {
      output.append(contentsOf: cached)
      return
    }
    var text: [UInt8] = []
    TraceValue.string(path.description).writeJSON(into: &text)
    if paths.count >= Self.cacheLimit { paths.removeAll(keepingCapacity: true) }
    paths[path] = text
    output.append(contentsOf: text)
  }

  private static func append(_ text: StaticString, to output: inout [UInt8]) {
    text.withUTF8Buffer { output.append(contentsOf: $0) }
  }

  /// 16 lower-case hex digits.
  private static func appendHex(_ value: UInt64, to output: inout [UInt8]) {
    for shift in stride(from: 60, through: 0, by: -4) {
      let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
      output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
    }
  }
}
