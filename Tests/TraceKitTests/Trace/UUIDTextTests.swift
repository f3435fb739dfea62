import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace writer names effects by `UUIDText`: exactly the text `UUID.uuidString` writes.
final class UUIDTextTests: XCTestCase {
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
}
