import Foundation
@testable import TraceValues
import XCTest

final class UUIDTextTests: XCTestCase {
  func testTheTextIsFoundationsUUIDString() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1_000 {
      let (high, low) = (generator.next() as UInt64, generator.next() as UInt64)
      let uuid = withUnsafeBytes(of: (high, low)) { UUID(uuid: $0.load(as: uuid_t.self)) }
      XCTAssertEqual(UUIDText.string(uuid), uuid.uuidString)
    }
    let fixed = UUID(uuidString: "00000000-0000-0000-007D-000000000003")!
    XCTAssertEqual(UUIDText.string(fixed), "00000000-0000-0000-007D-000000000003")
  }

  /// Every byte value at every position (the digits are made four bytes at a time).
  func testEveryByteAtEveryPositionIsFoundationsUUIDString() {
    for position in 0..<16 {
      for value in 0...255 {
        var bytes = [UInt8](repeating: 0x5A, count: 16)
        bytes[position] = UInt8(value)
        let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        XCTAssertEqual(UUIDText.string(uuid), uuid.uuidString, "byte \(position) = \(value)")
        XCTAssertEqual(
          UUIDText.withUTF8(uuid) { Array($0) }, Array(uuid.uuidString.utf8),
          "byte \(position) = \(value)")
      }
    }
  }

  /// A UUID read from lower-case text is written upper-case, as `uuidString` is.
  func testALowerCaseUUIDIsWrittenUpperCase() {
    let uuid = UUID(uuidString: "abcdef01-2345-6789-9abc-def0a9f00aff")!
    XCTAssertEqual(UUIDText.string(uuid), "ABCDEF01-2345-6789-9ABC-DEF0A9F00AFF")
    XCTAssertEqual(UUIDText.string(uuid), uuid.uuidString)
  }
}
