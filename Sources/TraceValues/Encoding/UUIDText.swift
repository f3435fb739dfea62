#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A UUID's text, upper-case hex in the 8-4-4-4-12 form: the same as `uuidString`, made without
/// the C library's formatted printing that Foundation uses on Linux (its `uuid_unparse` calls
/// `sprintf`: about 5,000 instructions a call, a third of the time to encode a state of a few
/// identified rows, and a tenth of the trace stage's work per step of an app whose actions
/// start effects, since each effect's row, end and sends name it).
///
/// ```swift
/// UUIDText.string(UUID(uuidString: "5F0C1A2B-0000-4000-8000-00000000000A")!)
/// // "5F0C1A2B-0000-4000-8000-00000000000A"
/// ```
package enum UUIDText {
  /// The length of the text in bytes.
  package static let length = 36

  package static func string(_ uuid: UUID) -> String {
    String(unsafeUninitializedCapacity: length) { text in
      write(uuid, to: UnsafeMutableRawPointer(text.baseAddress!))
      return length
    }
  }

  /// Lends the text's UTF-8 without making a `String` (a hash of it needs only the bytes).
  package static func withUTF8<Result>(
    _ uuid: UUID, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { text in
      write(uuid, to: UnsafeMutableRawPointer(text.baseAddress!))
      return body(UnsafeRawBufferPointer(start: text.baseAddress, count: length))
    }
  }

  /// Writes the text's `length` bytes at `text`. Four bytes at a time (see `hex`), stored eight
  /// or four digits at once: a byte at a time, with a table of digits, this was about 250
  /// instructions a UUID, half of them in its loop.
  package static func write(_ uuid: UUID, to text: UnsafeMutableRawPointer) {
    withUnsafeBytes(of: uuid.uuid) { bytes in
      let dash = UInt8(ascii: "-")
      // 8-4-4-4-12: bytes 0-3, 4-5, 6-7, 8-9, 10-15.
      let first = hex(bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
      let second = hex(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
      let third = hex(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
      let fourth = hex(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
      text.storeBytes(of: first, toByteOffset: 0, as: UInt64.self)
      text.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
      text.storeBytes(of: UInt32(truncatingIfNeeded: second), toByteOffset: 9, as: UInt32.self)
      text.storeBytes(of: dash, toByteOffset: 13, as: UInt8.self)
      text.storeBytes(
        of: UInt32(truncatingIfNeeded: second >> 32), toByteOffset: 14, as: UInt32.self)
      text.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
      text.storeBytes(of: UInt32(truncatingIfNeeded: third), toByteOffset: 19, as: UInt32.self)
      text.storeBytes(of: dash, toByteOffset: 23, as: UInt8.self)
      text.storeBytes(
        of: UInt32(truncatingIfNeeded: third >> 32), toByteOffset: 24, as: UInt32.self)
      text.storeBytes(of: fourth, toByteOffset: 28, as: UInt64.self)
    }
  }

  /// The upper-case hex digits of the four bytes `loaded` was read from, in their memory
  /// order: eight ASCII bytes, read back from memory in the same order (little-endian words:
  /// the first byte in memory is the word's lowest).
  @inline(__always)
  static func hex(_ loaded: UInt32) -> UInt64 {
    // Each byte into its own 16-bit lane, its high digit then its low digit in memory order.
    var lanes = UInt64(UInt32(littleEndian: loaded))
    lanes = (lanes | (lanes << 16)) & 0x0000_FFFF_0000_FFFF
    lanes = (lanes | (lanes << 8)) & 0x00FF_00FF_00FF_00FF
    let nibbles = ((lanes >> 4) & 0x000F_000F_000F_000F) | ((lanes & 0x000F_000F_000F_000F) << 8)
    // A nibble of 10 or more gets 7 more ("A" is 0x41, "9" + 1 is 0x3A): n + 6 reaches 16.
    let letters = ((nibbles &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010) >> 4
    return (nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 7).littleEndian
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
  package static func short(_ uuid: UUID) -> String {
    let text = string(uuid)
    return String(uuid.uuid.6 >> 4 == 7 ? text.suffix(8) : text.prefix(8))
  }
}
