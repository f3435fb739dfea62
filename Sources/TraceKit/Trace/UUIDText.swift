import Foundation

/// A UUID's text as `UUID.uuidString` writes it (upper-case hex, 8-4-4-4-12), written from its
/// bytes: Foundation's `uuidString` cost about 5,000 instructions a call on Linux, a tenth of
/// the trace stage's work per step of an app whose actions start effects (each effect's row,
/// end and sends name it).
///
/// ```swift
/// UUIDText.string(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
/// // "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
/// ```
package enum UUIDText {
  package static func string(_ id: UUID) -> String {
    String(unsafeUninitializedCapacity: length) { text in
      write(id, to: UnsafeMutableRawPointer(text.baseAddress!))
      return length
    }
  }

  /// The length of the text in bytes.
  package static let length = 36

  /// Writes the text's `length` bytes at `text`. Each digit is computed, not looked up: a
  /// global table's look-up checked its initialization and its bounds for every digit (about
  /// 600 instructions a UUID, written once for each effect's row).
  package static func write(_ id: UUID, to text: UnsafeMutableRawPointer) {
    withUnsafeBytes(of: id.uuid) { bytes in
      var position = 0
      for index in 0..<16 {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          text.storeBytes(of: UInt8(ascii: "-"), toByteOffset: position, as: UInt8.self)
          position += 1
        }
        let byte = bytes[index]
        text.storeBytes(of: digit(byte >> 4), toByteOffset: position, as: UInt8.self)
        text.storeBytes(of: digit(byte & 0x0F), toByteOffset: position + 1, as: UInt8.self)
        position += 2
      }
    }
  }

  /// The upper-case hex digit of `value` (0…15).
  @inline(__always)
  private static func digit(_ value: UInt8) -> UInt8 {
    value &+ (value < 10 ? UInt8(ascii: "0") : UInt8(ascii: "A") &- 10)
  }

  /// The 8 hex digits (upper-case) that name an effect in a table, a log line or a message:
  /// the last 8 of a time-ordered (version 7) id, whose first digits are the clock's and the
  /// same for every effect of a minute, and the first 8 of any other (a random version-4 id of
  /// a trace recorded before effect ids were time-ordered).
  ///
  /// ```swift
  /// UUIDText.short(UUID(uuidString: "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")!)  // "8A4B72D6"
  /// UUIDText.short(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)  // "E621E1F8"
  /// ```
  package static func short(_ id: UUID) -> String {
    let text = string(id)
    return String(id.uuid.6 >> 4 == 7 ? text.suffix(8) : text.prefix(8))
  }
}
