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
    withUnsafeBytes(of: id.uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { text in
        var position = 0
        for index in 0..<16 {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            text[position] = UInt8(ascii: "-")
            position += 1
          }
          text[position] = digits[Int(bytes[index] >> 4)]
          text[position + 1] = digits[Int(bytes[index] & 0x0F)]
          position += 2
        }
        return position
      }
    }
  }

  private static let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
