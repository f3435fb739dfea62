/// Makes recorded text safe to print on a terminal: a trace is untrusted input, so control
/// characters, escape sequences, direction overrides and every other invisible character are
/// always written as Swift escapes, never sent raw. Every renderer of values uses it, so a
/// string looks the same in `inspector show`, a TestStore failure and `TraceValue.description`.
///
/// ```swift
/// EscapedText.quoted("\u{1B}[31mred")  // "\"\\u{1B}[31mred\""
/// EscapedText.plain("a\tb")            // "a\\tb"
/// EscapedText.plain("pay\u{200B}pal")  // "pay\\u{200B}pal"
/// ```
package enum EscapedText {
  /// The text as a Swift string literal, quotes included.
  package static func quoted(_ text: String) -> String {
    if isPrintableASCII(text, quotable: true) { return "\"" + text + "\"" }
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
    if isPrintableASCII(text, quotable: false) { return text }
    if !text.unicodeScalars.contains(where: needsEscape) { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      appendEscaping(scalar, to: &out)
    }
    return out
  }

  /// Whether the text is printable ASCII (and, when `quotable`, holds no `"` or `\\`): then it
  /// needs no escaping, and a recorded megabyte is not walked character by character.
  package static func isPrintableASCII(_ text: String, quotable: Bool) -> Bool {
    let checked = text.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where byte < 0x20 || byte >= 0x7F {
        return false
      }
      guard quotable else { return true }
      for byte in bytes where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        return false
      }
      return true
    }
    return checked ?? false
  }

  /// Whether the scalar must not reach a terminal raw: C0 and C1 controls, DEL, line and
  /// paragraph separators, and every character that is invisible or changes how the text
  /// around it looks — format characters (zero-width spaces and joiners, the bidirectional
  /// overrides that reorder what a person sees, tags) and the other default-ignorable ones
  /// (Hangul fillers). Variation selectors stay: they only pick a glyph's presentation.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 }
    if value <= 0x9F { return true }
    switch scalar.properties.generalCategory {
    case .format, .lineSeparator, .paragraphSeparator, .control, .surrogate: return true
    default: break
    }
    let isVariationSelector =
      (0xFE00...0xFE0F).contains(value)
      || (0xE0100...0xE01EF).contains(value)
    return scalar.properties.isDefaultIgnorableCodePoint && !isVariationSelector
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
