/// Makes recorded text safe to print on a terminal: a trace is untrusted input, so control
/// characters, escape sequences and invisible direction overrides are always written as Swift
/// escapes, never sent raw. Every renderer of values uses it, so a string looks the same in
/// `inspector show`, a TestStore failure and `TraceValue.description`.
///
/// ```swift
/// EscapedText.quoted("\u{1B}[31mred")  // "\"\\u{1B}[31mred\""
/// EscapedText.plain("a\tb")            // "a\\tb"
/// ```
package enum EscapedText {
  /// The text as a Swift string literal, quotes included.
  package static func quoted(_ text: String) -> String {
    var out = "\""
    out.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: appendEscaping(scalar, to: &out)
      }
    }
    out += "\""
    return out
  }

  /// The text as is, except for the characters a terminal would interpret.
  package static func plain(_ text: String) -> String {
    if !text.unicodeScalars.contains(where: needsEscape) { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      appendEscaping(scalar, to: &out)
    }
    return out
  }

  /// Whether the scalar must not reach a terminal raw: C0 and C1 controls, DEL, the
  /// bidirectional overrides that reorder what a person sees, and the Unicode line and
  /// paragraph separators (U+2028, U+2029) that some viewers break lines at.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    case 0x2028, 0x2029: true
    default: false
    }
  }

  private static func appendEscaping(_ scalar: Unicode.Scalar, to out: inout String) {
    guard needsEscape(scalar) else {
      out.unicodeScalars.append(scalar)
      return
    }
    switch scalar {
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case "\0": out += "\\0"
    default: out += "\\u{" + hex(scalar.value) + "}"
    }
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count < 2 ? "0" + digits : digits
  }
}
