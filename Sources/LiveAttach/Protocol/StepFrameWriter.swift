import TraceKit

/// Writes a `step` message's JSON directly — the bytes `LiveMessage.step(record)`'s object
/// would write — without building that object; its changes are written by the trace's own
/// change encoder, which remembers the text of the paths it wrote (a live app changes the
/// same few paths again and again).
///
/// ```swift
/// var writer = StepFrameWriter()
/// writer.write(record, into: &bytes)
/// // {"type":"step","step":7,"mono":1500,…,"hash":"00abcdef01234567","reducerNs":42}
/// ```
package struct StepFrameWriter {
  private var changes = StepLine.Encoder()

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
      changes.writeChange(change, into: &output)
    }
    Self.append(#"],"changedPaths":"#, to: &output)
    changes.writeStringArray(record.changedPaths, into: &output)
    Self.append(#","hash":""#, to: &output)
    Self.appendHex(record.stateHash, to: &output)
    Self.append(#"","reducerNs":"#, to: &output)
    LiveObject.integer(record.reducerNanos).writeJSON(into: &output)
    if !record.dependencies.isEmpty {
      Self.append(#","deps":"#, to: &output)
      LiveMessage.dependencies(record).writeJSON(into: &output)
    }
    output.append(UInt8(ascii: "}"))
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
