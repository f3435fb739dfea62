import ComposableCore
import TraceKit
import XCTest

@testable import TraceRecorder

/// An identified array's changed elements are found by comparing their bytes (`size`, not
/// `stride`): a change in any byte of an element, the last one included, is found, whatever
/// the element's size.
final class ElementBytesTests: XCTestCase {
  /// 1 byte.
  struct Flag: Codable, Equatable, Identifiable {
    var on: Bool
    var id: Bool { true }
  }

  /// 9 bytes (an `Int`, a `Bool`).
  struct Small: Codable, Equatable, Identifiable {
    var id: Int
    var done = false
  }

  /// 16 bytes: two words.
  struct Pair: Codable, Equatable, Identifiable {
    var id: Int
    var count = 0
  }

  /// 33 bytes (a UUID-sized pair of ints, a string, a `Bool`), as a todo.
  struct Todo: Codable, Equatable, Identifiable {
    var id: Int
    var other = 0
    var title: String
    var done = false
  }

  /// 7 bytes.
  struct Seven: Codable, Equatable, Identifiable {
    var id: Int32
    var a: UInt8 = 0
    var b: UInt8 = 0
    var c: UInt8 = 0
  }

  struct State: Codable, Equatable {
    var flags: IdentifiedArrayOf<Flag> = [Flag(on: false)]
    var small = IdentifiedArrayOf(uniqueElements: (0..<100).map { Small(id: $0) })
    var pairs = IdentifiedArrayOf(uniqueElements: (0..<100).map { Pair(id: $0) })
    var todos = IdentifiedArrayOf(uniqueElements: (0..<100).map { Todo(id: $0, title: "t\($0)") })
    var sevens = IdentifiedArrayOf(uniqueElements: (0..<100).map { Seven(id: Int32($0)) })
  }

  func testElementSizes() {
    XCTAssertEqual(MemoryLayout<Flag>.size, 1)
    XCTAssertEqual(MemoryLayout<Small>.size, 9)
    XCTAssertEqual(MemoryLayout<Pair>.size, 16)
    XCTAssertEqual(MemoryLayout<Todo>.size, 33)
    XCTAssertEqual(MemoryLayout<Seven>.size, 7)
  }

  func testAChangeInAnElementsLastByteOrAnyWordIsFound() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    let steps: [(inout State) -> Void] = [
      { $0.flags[id: true]?.on = true },
      { $0.small[id: 70]?.done = true },  // byte 8, the last
      { $0.pairs[id: 3]?.count = 5 },  // bytes 8-15
      { $0.todos[id: 64]?.done = true },  // byte 32
      { $0.todos[id: 99]?.other = 1 },  // bytes 8-15
      { $0.todos[id: 5]?.title = "changed" },  // bytes 16-31
      { $0.sevens[id: 42]?.c = 9 },  // byte 6
      { $0.sevens[id: 41]?.a = 1 },  // byte 4
    ]
    var found: [[String]] = []
    for step in steps {
      step(&state)
      found.append(try encoder.encode(state).changes.map(\.description))
    }
    XCTAssertEqual(
      found,
      [
        ["set flags[0].on true"],  // a `Bool` id is written as the index
        ["set small[id: 70].done true"],
        ["set pairs[id: 3].count 5"],
        ["set todos[id: 64].done true"],
        ["set todos[id: 99].other 1"],
        [#"set todos[id: 5].title "changed""#],
        ["set sevens[id: 42].c 9"],
        ["set sevens[id: 41].a 1"],
      ])
  }
}
