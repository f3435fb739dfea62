import Foundation
import TraceValues
import XCTest

private final class Node {
  var name: String
  var next: Node?
  init(name: String, next: Node? = nil) {
    self.name = name
    self.next = next
  }
}

private class Base {
  var id = 7
}

private final class Derived: Base {
  var extra = "e"
}

private enum Screen {
  case home
  case detail(Int)
  case edit(title: String, count: Int)
}

private struct Spot: Hashable {
  var x: Int
}

private struct NotCodable {
  var screen = Screen.detail(4)
  var edit = Screen.edit(title: "t", count: 2)
  var home = Screen.home
  var pair = (1, label: "x")
  var maybe: Int? = nil
  var some: Int? = 5
  var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
  var set: Set<String> = ["pear", "apple", "fig"]
  var table: [String: Int] = ["b": 2, "a": 1]
  var byNumber: [Int: String] = [3: "c", 1: "a"]
  var spots: Set<Spot> = [Spot(x: 3), Spot(x: 1), Spot(x: 2)]
  var action: () -> Void = {}
}

final class TraceValueReflectingTests: XCTestCase {
  func testBuildsAReadOnlyTreeMarkedReflected() {
    let tree = TraceValue(reflecting: NotCodable())
    guard case .reflected(let typeName, _) = tree else { return XCTFail("\(tree)") }
    XCTAssertEqual(typeName, "NotCodable")
    XCTAssertEqual(
      tree.description,
      "NotCodable(screen: .detail(4), edit: .edit(title: \"t\", count: 2), home: .home, "
        + "pair: (_0: 1, label: \"x\"), maybe: nil, some: 5, "
        + "uuid: \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", "
        + "set: [\"apple\", \"fig\", \"pear\"], table: (a: 1, b: 2), "
        + "byNumber: (\"1\": \"a\", \"3\": \"c\"), spots: [(x: 1), (x: 2), (x: 3)], "
        + "action: \"(Function)\")")
  }

  func testPathsAndDiffsLookThroughTheMarker() throws {
    var state = NotCodable()
    let before = TraceValue(reflecting: state)
    state.screen = .detail(5)
    let after = TraceValue(reflecting: state)
    XCTAssertEqual(before.value(at: try TracePath(parsing: "screen.detail")), .int(4))
    let changes = TraceDiff.changes(from: before, to: after)
    XCTAssertEqual(changes.map(\.description), ["set screen.detail 5"])
    var patched = before
    try TraceDiff.apply(changes, to: &patched)
    XCTAssertEqual(patched, after)
  }

  func testClassesIncludeSuperclassFieldsAndStopAtCycles() {
    XCTAssertEqual(TraceValue(reflecting: Derived()).description, #"Derived(id: 7, extra: "e")"#)
    let first = Node(name: "a")
    first.next = Node(name: "b", next: first)
    XCTAssertEqual(
      TraceValue(reflecting: first).description,
      #"Node(name: "a", next: (name: "b", next: "<cycle: Node>"))"#)
  }

  func testDeepNestingIsCutOff() {
    var node = Node(name: "0")
    for index in 1..<100 { node = Node(name: "\(index)", next: node) }
    var value = TraceValue(reflecting: node)
    var depth = 0
    while case .object(let fields) = value.value(at: TracePath([.key("next")])) ?? .null {
      value = .object(fields)
      depth += 1
    }
    XCTAssertEqual(value.value(at: TracePath([.key("next")])), .string("<too deep: Node>"))
    XCTAssertEqual(depth, 31)
  }
}
