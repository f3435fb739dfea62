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
}
