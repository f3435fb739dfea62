import TraceKit

/// A small JSON document builder for `--json` and `export`: keys in the order they are written,
/// strings escaped (control characters included, so nothing raw reaches a terminal), trace
/// values in TraceKit's JSON form.
///
/// ```swift
/// var json = JSONOutput()
/// json.object {
///   json.field("step") { json.int(3) }
///   json.field("path") { json.string("counter.incrementTapped") }
/// }
/// json.text  // {"step":3,"path":"counter.incrementTapped"}
/// ```
struct JSONOutput {
  private(set) var text = ""
  private var needsComma = [false]

  mutating func object(_ body: (inout JSONOutput) -> Void) {
    container("{", "}", body)
  }

  mutating func array(_ body: (inout JSONOutput) -> Void) {
    container("[", "]", body)
  }

  mutating func field(_ key: String, _ body: (inout JSONOutput) -> Void) {
    separate()
    text += Self.quoted(key) + ":"
    needsComma[needsComma.count - 1] = false
    body(&self)
    needsComma[needsComma.count - 1] = true
  }

  mutating func string(_ value: String) { scalar(Self.quoted(value)) }
  mutating func int(_ value: Int) { scalar(String(value)) }
  mutating func uint(_ value: UInt64) { scalar(String(value)) }
  mutating func bool(_ value: Bool) { scalar(value ? "true" : "false") }
  mutating func null() { scalar("null") }

  mutating func double(_ value: Double) {
    scalar(value.isFinite ? "\(value)" : "null")
  }

  /// A value already written as JSON: a number's exact text, or a finished object.
  mutating func raw(_ json: String) { scalar(json) }

  mutating func value(_ value: TraceValue) {
    scalar(Self.escapingTerminalControls(value.jsonString))
  }

  /// TraceKit's JSON form escapes C0 controls; DEL, C1 controls and direction overrides must
  /// not reach a terminal either. They can only occur inside JSON strings, where `\uXXXX` is
  /// the same text.
  static func escapingTerminalControls(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: EscapedText.needsEscape) else { return json }
    var out = ""
    out.reserveCapacity(json.utf8.count + 16)
    for scalar in json.unicodeScalars {
      if EscapedText.needsEscape(scalar) {
        appendEscape(scalar, to: &out)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `\uXXXX`, or the UTF-16 surrogate pair `\uD8XX\uDCXX` beyond the Basic Multilingual
  /// Plane (a JSON escape holds four hex digits, never five).
  static func appendEscape(_ scalar: Unicode.Scalar, to out: inout String) {
    for unit in String(scalar).utf16 {
      let hex = String(unit, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
  }

  /// `{"error":"<what> (<where>)"}`: the last element (or member) of a streamed document that
  /// a failure ended early, so it stays valid JSON and says why it ends there.
  static func error(_ error: InspectorError) -> String {
    "{\"error\":" + quoted(error.message) + "}"
  }

  mutating func optional<T>(_ value: T?, _ body: (inout JSONOutput, T) -> Void) {
    if let value { body(&self, value) } else { null() }
  }

  /// Drains what was written so far (for streaming long arrays).
  mutating func take() -> String {
    defer { text = "" }
    return text
  }

  private mutating func container(
    _ open: String, _ close: String, _ body: (inout JSONOutput) -> Void
  ) {
    separate()
    text += open
    needsComma.append(false)
    body(&self)
    needsComma.removeLast()
    text += close
    needsComma[needsComma.count - 1] = true
  }

  private mutating func scalar(_ literal: String) {
    separate()
    text += literal
    needsComma[needsComma.count - 1] = true
  }

  private mutating func separate() {
    if needsComma[needsComma.count - 1] { text += "," }
  }

  static func quoted(_ string: String) -> String {
    // Most text is printable ASCII without quotes or backslashes: no per-character work.
    if EscapedText.isPrintableASCII(string, quotable: true) { return "\"" + string + "\"" }
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if EscapedText.needsEscape(scalar) {
          appendEscape(scalar, to: &out)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
