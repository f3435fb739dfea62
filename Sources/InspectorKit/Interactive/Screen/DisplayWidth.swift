#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many terminal columns a character takes, by the C library's `wcwidth` (the table the
/// terminal on the same machine uses): 2 for Korean syllables and most emoji, 0 for combining
/// marks, 1 for the rest; -1 for what a terminal cannot print (controls, separators).
///
/// ```swift
/// DisplayWidth.of("한")    // 2
/// DisplayWidth.of("e\u{301}")  // 1: the accent combines
/// DisplayWidth.of("한국어 ok")  // 9
/// ```
///
/// `wcwidth` answers by the `LC_CTYPE` locale: when the process's is not UTF-8 (a plain `C`
/// locale), it switches `LC_CTYPE` to `C.UTF-8` once, as the terminal layer does too.
package enum DisplayWidth {
  /// The width of one character (grapheme cluster): its first scalar's, since the scalars
  /// after it (combining marks, variation selectors, joined emoji) draw over it.
  package static func of(_ character: Character) -> Int {
    if let ascii = character.asciiValue {
      return ascii >= 0x20 && ascii < 0x7F ? 1 : -1
    }
    guard let first = character.unicodeScalars.first else { return 0 }
    return scalarWidth(first)
  }

  /// The width of a whole string, counting what cannot be printed as 0.
  package static func of(_ string: String) -> Int {
    var total = 0
    for character in string { total += max(0, of(character)) }
    return total
  }

  static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
    guard let wcwidth = libcWidth else { return scalar.properties.isEmojiPresentation ? 2 : 1 }
    return Int(wcwidth(Int32(bitPattern: scalar.value)))
  }

  /// The C library's `wcwidth`, looked up once after setting a UTF-8 `LC_CTYPE` (so that it
  /// knows wide characters). Swift's Glibc module leaves it out (it is an X/Open extension),
  /// so it is found by name; nil only on a C library without it.
  private static let libcWidth: (@convention(c) (Int32) -> Int32)? = {
    ensureUTF8Locale()
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth") else {
      return nil
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
  }()

  /// Takes the user's character locale (`LANG`, `LC_CTYPE`), or `C.UTF-8` when that is not
  /// UTF-8: the view writes and measures UTF-8 whatever the environment says.
  package static func ensureUTF8Locale() {
    setlocale(LC_CTYPE, "")
    if !isUTF8 { setlocale(LC_CTYPE, "C.UTF-8") }
  }

  private static var isUTF8: Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
  }
}
