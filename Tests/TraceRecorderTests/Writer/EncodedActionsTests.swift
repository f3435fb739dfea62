import Foundation
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

  /// More than the 64 bytes the cache looks up by their bits.
  struct Large: Equatable {
    var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0
  }

  /// A row's action in a list's in an app's: a 16-byte id and a string, with their cases'
  /// tags, over 32 bytes.
  enum Row: Equatable {
    case toggle
    case title(String)
  }
  enum List: Equatable {
    case row(id: UUID, action: Row)
    case move([Int], to: Int)
  }
  enum App: Equatable {
    case list(List)
    case counter(Int)
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

  func testANestedActionOfUpTo64BytesIsFoundByItsBits() {
    XCTAssertGreaterThan(MemoryLayout<App>.size, 32)
    XCTAssertLessThanOrEqual(MemoryLayout<App>.size, 64)
    var actions = EncodedActions(of: App.self)
    let first = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    let second = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    actions.insert(App.list(.row(id: first, action: .toggle)), value: .int(1), path: "toggle")
    actions.insert(App.list(.row(id: second, action: .toggle)), value: .int(2), path: "toggle")
    actions.insert(
      App.list(.row(id: first, action: .title("Todo 3"))), value: .int(3), path: "title")
    actions.insert(App.counter(7), value: .int(4), path: "counter")
    XCTAssertEqual(
      actions.encoding(of: App.list(.row(id: first, action: .toggle)))?.value, .int(1))
    XCTAssertEqual(
      actions.encoding(of: App.list(.row(id: second, action: .toggle)))?.value, .int(2))
    XCTAssertEqual(
      actions.encoding(of: App.list(.row(id: first, action: .title("Todo 3"))))?.value, .int(3))
    XCTAssertEqual(actions.encoding(of: App.counter(7))?.value, .int(4))
    XCTAssertNil(actions.encoding(of: App.list(.row(id: second, action: .title("Todo 3")))))
    XCTAssertNil(actions.encoding(of: App.list(.row(id: first, action: .title("Todo 4")))))
    XCTAssertNil(actions.encoding(of: App.counter(8)))
    // An array in another buffer is another value for the cache: encoded again.
    let moved = App.list(.move([0], to: 2))
    actions.insert(moved, value: .int(5), path: "move")
    XCTAssertEqual(actions.encoding(of: moved)?.value, .int(5))
    var offsets: [Int] = []
    offsets.append(0)
    XCTAssertNil(actions.encoding(of: App.list(.move(offsets, to: 2))))
  }

  func testALargeActionIsComparedWithTheLastOneOnly() {
    XCTAssertGreaterThan(MemoryLayout<Large>.size, 64)
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
