#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A UUID's text, upper-case hex in the 8-4-4-4-12 form: the same as `uuidString`, made without
/// the C library's formatted printing that Foundation uses on Linux (its `uuid_unparse` calls
/// `sprintf`, about a third of the time to encode a state of a few identified rows).
///
/// ```swift
/// UUIDText.string(UUID(uuidString: "5F0C1A2B-0000-4000-8000-00000000000A")!)
/// // "5F0C1A2B-0000-4000-8000-00000000000A"
/// ```
enum UUIDText {
  static let length = 36

  static func string(_ uuid: UUID) -> String {
    String(unsafeUninitializedCapacity: length) { text in write(uuid, into: text) }
  }

  /// Lends the text's UTF-8 without making a `String` (a hash of it needs only the bytes).
  static func withUTF8<Result>(
    _ uuid: UUID, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { text in
      let count = write(uuid, into: text)
      return body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: text[..<count])))
    }
  }

  /// Writes the text into `text` (at least `length` bytes); returns its length.
  private static func write(_ uuid: UUID, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
    let digits: StaticString = "0123456789ABCDEF"
    return withUnsafeBytes(of: uuid.uuid) { bytes in
      var index = 0
      for (position, byte) in bytes.enumerated() {
        if position == 4 || position == 6 || position == 8 || position == 10 {
          text[index] = UInt8(ascii: "-")
          index += 1
        }
        text[index] = digits.utf8Start[Int(byte >> 4)]
        text[index + 1] = digits.utf8Start[Int(byte & 0x0F)]
        index += 2
      }
      return index
    }
  }
}
