import Foundation

// The `swift_types` text written by hand. The writer stores the table again each time it
// grows (a few times a recording), and Foundation's `JSONEncoder` took about 1 M instructions
// for it, on the thread that writes the steps. The bytes are exactly what
// `sortedJSONText(table, empty:)` gives on this platform: keys sorted by their UTF-8 bytes, an
// optional member left out when nil, slashes not escaped (the tests compare the two).

extension SwiftTypeTable {
  /// Appends the table's JSON text (`jsonText`'s bytes).
  ///
  /// ```swift
  /// var bytes: [UInt8] = []
  /// SwiftTypeTable(state: ["": SwiftTypeEntry(type: "App.State", kind: .struct)])
  ///   .writeJSONText(into: &bytes)
  /// print(String(decoding: bytes, as: UTF8.self))
  /// // {"action":{},"state":{"":{"kind":"struct","type":"App.State"}}}
  /// ```
  func writeJSONText(into buffer: inout [UInt8]) {
    SortedJSON.append("{\"action\":", into: &buffer)
    Self.writeEntries(action, into: &buffer)
    SortedJSON.append(",\"state\":", into: &buffer)
    Self.writeEntries(state, into: &buffer)
    buffer.append(UInt8(ascii: "}"))
  }

  private static func writeEntries(
    _ entries: [String: SwiftTypeEntry], into buffer: inout [UInt8]
  ) {
    SortedJSON.writeObject(entries, into: &buffer) { entry, buffer in
      entry.writeJSONText(into: &buffer)
    }
  }
}

extension SwiftTypeEntry {
  /// The entry's members in the order of their names' bytes: cases, keyType, kind, optional,
  /// rawValues, type.
  fileprivate func writeJSONText(into buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "{"))
    if let cases {
      SortedJSON.append("\"cases\":[", into: &buffer)
      var first = true
      for name in cases {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        SortedJSON.writeString(name, into: &buffer)
      }
      SortedJSON.append("],", into: &buffer)
    }
    if let keyType {
      SortedJSON.append("\"keyType\":", into: &buffer)
      SortedJSON.writeString(keyType, into: &buffer)
      buffer.append(UInt8(ascii: ","))
    }
    SortedJSON.append("\"kind\":", into: &buffer)
    SortedJSON.writeString(kind.rawValue, into: &buffer)
    if let optional {
      SortedJSON.append(optional ? ",\"optional\":true" : ",\"optional\":false", into: &buffer)
    }
    if let rawValues {
      SortedJSON.append(",\"rawValues\":", into: &buffer)
      SortedJSON.writeObject(rawValues, into: &buffer) { name, buffer in
        SortedJSON.writeString(name, into: &buffer)
      }
    }
    SortedJSON.append(",\"type\":", into: &buffer)
    SortedJSON.writeString(type, into: &buffer)
    buffer.append(UInt8(ascii: "}"))
  }
}

/// The pieces of `sortedJSONText`'s format the hand-written writers share.
private enum SortedJSON {
  static func append(_ text: StaticString, into buffer: inout [UInt8]) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  /// An object of `dictionary`'s pairs, in the order `JSONEncoder`'s `.sortedKeys` writes them
  /// here: by the keys' UTF-8 bytes. The keys alone are sorted (sorting the pairs moved whole
  /// entries around).
  static func writeObject<Value>(
    _ dictionary: [String: Value], into buffer: inout [UInt8],
    value writeValue: (Value, inout [UInt8]) -> Void
  ) {
    buffer.append(UInt8(ascii: "{"))
    var first = true
    for key in dictionary.keys.sorted(by: precedes) {
      if !first { buffer.append(UInt8(ascii: ",")) }
      first = false
      writeString(key, into: &buffer)
      buffer.append(UInt8(ascii: ":"))
      writeValue(dictionary[key]!, &buffer)
    }
    buffer.append(UInt8(ascii: "}"))
  }

  /// Whether `a`'s UTF-8 bytes come before `b`'s. Patterns share long prefixes
  /// (`todos[].…`): `memcmp` is a tenth of the cost of walking two `UTF8View`s.
  static func precedes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { a in
      b.withUTF8 { b in
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order != 0 ? order < 0 : a.count < b.count
      }
    }
  }

  /// A string as `JSONEncoder` writes it with `.withoutEscapingSlashes`: `"` and `\` escaped,
  /// the control characters as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00xx` (lowercase hex),
  /// everything else as its UTF-8 bytes.
  static func writeString(_ string: String, into buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "\""))
    var string = string
    let plain = string.withUTF8 { bytes in
      guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == 0x5C })
      else { return false }
      buffer.append(contentsOf: bytes)
      return true
    }
    if plain {
      buffer.append(UInt8(ascii: "\""))
      return
    }
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(byte)
      case 0x08: append("\\b", into: &buffer)
      case 0x0C: append("\\f", into: &buffer)
      case 0x0A: append("\\n", into: &buffer)
      case 0x0D: append("\\r", into: &buffer)
      case 0x09: append("\\t", into: &buffer)
      case 0x00..<0x20:
        append("\\u00", into: &buffer)
        let digits: StaticString = "0123456789abcdef"
        buffer.append(digits.utf8Start[Int(byte >> 4)])
        buffer.append(digits.utf8Start[Int(byte & 0x0F)])
      default:
        buffer.append(byte)
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }
}
