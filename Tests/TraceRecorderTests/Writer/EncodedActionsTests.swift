import TraceKit
import XCTest

@testable import TraceRecorder

/// The writer's action cache: an action is found again only by its own bits.
final class EncodedActionsTests: XCTestCase {
  enum Small: Equatable {
    case plus
    case set(Int)
    case title(String)
  }

  struct Large: Equatable {
    var a = 0, b = 0, c = 0, d = 0, e = 0
  }

  func testAnActionIsFoundByItsBitsAndNeverForAnotherPayload() {
    var actions = EncodedActions(of: Small.self)
    let long = String(repeating: "long title ", count: 4)
    XCTAssertNil(actions.encoding(of: Small.plus))
    actions.insert(Small.plus, value: .enumCase("plus", []), path: "plus")
    actions.insert(Small.set(1), value: .int(1), path: "set")
    actions.insert(Small.title(long), value: .string(long), path: "title")
    XCTAssertEqual(actions.encoding(of: Small.plus)?.path, "plus")
    XCTAssertEqual(actions.encoding(of: Small.set(1))?.value, .int(1))
    XCTAssertNil(actions.encoding(of: Small.set(2)))
    // The same text in another buffer is another value for the cache: encoded again.
    let copy = String(repeating: "long title ", count: 4)
    XCTAssertNil(actions.encoding(of: Small.title(copy)))
    XCTAssertEqual(actions.encoding(of: Small.title(long))?.value, .string(long))
  }

  func testALargeActionIsComparedWithTheLastOneOnly() {
    var actions = EncodedActions(of: Large.self)
    actions.insert(Large(a: 1), value: .int(1), path: "a")
    XCTAssertEqual(actions.encoding(of: Large(a: 1))?.value, .int(1))
    actions.insert(Large(a: 2), value: .int(2), path: "a")
    XCTAssertNil(actions.encoding(of: Large(a: 1)))
  }

  func testAFullCacheStartsAgain() {
    var actions = EncodedActions(of: Small.self, capacity: 2)
    actions.insert(Small.set(1), value: .int(1), path: "set")
    actions.insert(Small.set(2), value: .int(2), path: "set")
    actions.insert(Small.set(3), value: .int(3), path: "set")
    XCTAssertNil(actions.encoding(of: Small.set(1)))
    XCTAssertEqual(actions.encoding(of: Small.set(3))?.value, .int(3))
  }
}
