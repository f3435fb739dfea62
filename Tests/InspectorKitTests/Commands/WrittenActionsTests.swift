import XCTest

@testable import InspectorKit

/// `export`'s written actions: found again by their stored bytes only.
final class WrittenActionsTests: XCTestCase {
  func testAnActionIsFoundByItsStoredBytesAndNoOthers() {
    var actions = WrittenActions()
    let plus = Array(#"{"$case":"plus"}"#.utf8)
    let minus = Array(#"{"$case":"minus"}"#.utf8)
    plus.withUnsafeBytes { XCTAssertNil(actions.written(stored: $0)) }
    plus.withUnsafeBytes { actions.insert(stored: $0, written: Array("P".utf8)) }
    minus.withUnsafeBytes { actions.insert(stored: $0, written: Array("M".utf8)) }
    plus.withUnsafeBytes { XCTAssertEqual(actions.written(stored: $0), Array("P".utf8)) }
    minus.withUnsafeBytes { XCTAssertEqual(actions.written(stored: $0), Array("M".utf8)) }
    Array(#"{"$case":"reset"}"#.utf8).withUnsafeBytes {
      XCTAssertNil(actions.written(stored: $0))
    }
  }
}
