import Foundation
import TestSupport
@testable import TraceValues
import XCTest

/// Effects are named by `UUIDText` in the trace and states' ids are encoded by it: exactly the
/// text `UUID.uuidString` writes.
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

  func testEveryUUIDIsWrittenAsUUIDStringWritesIt() {
    XCTAssertEqual(
      UUIDText.string(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))),
      "00000000-0000-0000-0000-000000000000")
    XCTAssertEqual(
      UUIDText.string(UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!),
      "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    let all = UUID(
      uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
    XCTAssertEqual(UUIDText.string(all), all.uuidString)
    var random = SplitMix(seed: 14)
    for _ in 0..<2_000 {
      var bytes = [UInt8](repeating: 0, count: 16)
      for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
      let id = UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
      XCTAssertEqual(UUIDText.string(id), id.uuidString)
    }
  }

  /// `write(_:to:)` fills exactly `length` bytes: the bytes around them are left as they were.
  func testWriteFillsExactlyTheTextsLength() {
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var buffer = [UInt8](repeating: 0xEE, count: UUIDText.length + 2)
    buffer.withUnsafeMutableBytes { UUIDText.write(id, to: $0.baseAddress! + 1) }
    XCTAssertEqual(buffer.first, 0xEE)
    XCTAssertEqual(buffer.last, 0xEE)
    XCTAssertEqual(Array(buffer[1...UUIDText.length]), Array(id.uuidString.utf8))
  }

  /// An effect's short name is the part of its id that is random: the end of a version-7 id
  /// (two made in the same minute share their first 8 digits), the start of any other.
  func testTheShortNameIsTheRandomEndOfAVersion7IDAndTheStartOfOthers() {
    XCTAssertEqual(
      UUIDText.short(UUID(uuidString: "019A6C3E-5B21-7000-9F3D-1C0E8A4B72D6")!), "8A4B72D6")
    XCTAssertEqual(
      UUIDText.short(UUID(uuidString: "019A6C3E-5B21-7001-A4C2-77E0193D5B10")!), "193D5B10")
    XCTAssertEqual(
      UUIDText.short(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "E621E1F8")
    XCTAssertEqual(
      UUIDText.short(UUID(uuidString: "00000000-0000-0000-007D-000000000007")!), "00000000")
  }
}
