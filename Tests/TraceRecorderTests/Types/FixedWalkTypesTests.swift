import ComposableCore
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// `FixedWalkTypes`: which element types a walk of one element tells all about, and walks of
/// collections whose elements differ in what a walk sees (an enum's case, an optional, an
/// existential's type, a nested collection's count) still seeing every element's.
final class FixedWalkTypesTests: XCTestCase {
  fileprivate enum Phase: Codable, Equatable {
    case idle
    case loading(progress: Int)
    case done(String)
  }

  fileprivate protocol Shape: Encodable {}

  fileprivate struct Circle: Shape { var radius: Double }

  fileprivate struct Square: Shape {
    var side: Int
    var label: String
  }

  fileprivate final class Box { var count = 0 }

  fileprivate struct Point: Codable, Equatable {
    var x: Int32
    var y: Float
  }

  fileprivate struct Plain: Codable, Equatable, Identifiable {
    var id: UUID
    var title: String
    var done: Bool
    var at: Date
    var link: URL
    var point: Point
    var size: UInt8
  }

  fileprivate struct WithEnum { var phase: Phase }
  fileprivate struct WithOptional { var name: String? }
  fileprivate struct WithExistential { var shape: any Shape }
  fileprivate struct WithClass { var box: Box }
  fileprivate struct WithArray { var tags: [String] }
  fileprivate struct WithNested { var inner: WithEnum }
  fileprivate struct WithWrapper { @PresentationState var sheet: Point? }
  fileprivate struct WithTuple { var pair: (Int, Int) }

  fileprivate struct Mirrored: CustomReflectable {
    var value: Int
    var customMirror: Mirror { Mirror(self, children: ["value": value]) }
  }

  func testLeavesAndStructsOfLeavesAreFixedAndNothingThatCanDifferIs() {
    let fixed = FixedWalkTypes()
    let expected: [(Any.Type, Bool)] = [
      (String.self, true), (Int.self, true), (Bool.self, true), (Double.self, true),
      (UUID.self, true), (Date.self, true), (URL.self, true), (UInt8.self, true),
      (Point.self, true), (Plain.self, true),
      (Phase.self, false), (Optional<Int>.self, false), (WithEnum.self, false),
      (WithOptional.self, false), (WithExistential.self, false), (WithClass.self, false),
      (WithArray.self, false), (WithNested.self, false), (WithWrapper.self, false),
      (WithTuple.self, false), (Mirrored.self, false), (Box.self, false),
      ((any Shape).self, false), ([Point].self, false), (Decimal.self, false),
    ]
    for (type, isFixed) in expected {
      XCTAssertEqual(fixed.contains(type), isFixed, "\(type)")
      // Asked again: the same answer, from the cache.
      XCTAssertEqual(fixed.contains(type), isFixed, "\(type) again")
    }
  }

  fileprivate struct State {
    var plain: [Plain]
    var rows: IdentifiedArrayOf<Plain>
    var maybeRows: IdentifiedArrayOf<Plain>?
    var points: Set<Int>
    var phases: [WithEnum]
    var names: [WithOptional]
    var shapes: [WithExistential]
    var lists: [WithArray]
  }

  private func walk(_ state: State) -> [String] {
    var walk = SwiftTypeWalk(entries: [:], fixed: FixedWalkTypes())
    walk.visit(state, pattern: "", depth: 0)
    return SwiftTypeEntry.lines(walk.entries)
  }

  func testOneFixedElementTellsTheRestAndOtherElementsAreEachWalked() {
    let date = Date(timeIntervalSinceReferenceDate: 0)
    let link = URL(string: "https://example.com")!
    let plain = (0..<100).map { index in
      Plain(
        id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(index))),
        title: "t\(index)", done: index % 2 == 0, at: date, link: link,
        point: Point(x: Int32(index), y: 1), size: 1)
    }
    let state = State(
      plain: plain, rows: IdentifiedArrayOf(uniqueElements: plain),
      maybeRows: IdentifiedArrayOf(uniqueElements: plain.prefix(2)), points: [1, 2, 3],
      phases: [
        WithEnum(phase: .idle), WithEnum(phase: .loading(progress: 1)),
        WithEnum(phase: .done("x")),
      ],
      names: [WithOptional(name: nil), WithOptional(name: "n")],
      shapes: [
        WithExistential(shape: Circle(radius: 1)),
        WithExistential(shape: Square(side: 2, label: "s")),
      ],
      lists: [WithArray(tags: []), WithArray(tags: ["a"])])
    let own = "TraceRecorderTests.FixedWalkTypesTests.(private)."
    let uuid = "FoundationEssentials.UUID"
    /// A `Plain` element's lines at `pattern`: the same for 100 elements as for one.
    func plainLines(_ pattern: String) -> [String] {
      [
        "\(pattern): \(own)Plain struct",
        "\(pattern).at: FoundationEssentials.Date date",
        "\(pattern).done: Swift.Bool bool",
        "\(pattern).id: \(uuid) uuid",
        "\(pattern).link: FoundationEssentials.URL url",
        "\(pattern).point: \(own)Point struct",
        "\(pattern).point.x: Swift.Int32 integer",
        "\(pattern).point.y: Swift.Float floatingPoint",
        "\(pattern).size: Swift.UInt8 integer",
        "\(pattern).title: Swift.String string",
      ]
    }
    let rows = "ComposableCore.IdentifiedArray<\(uuid), \(own)Plain>"
    var expected = [
      ": \(own)State struct",
      "lists: Swift.Array<\(own)WithArray> array",
      "lists[]: \(own)WithArray struct",
      // Only the second element's list holds a string.
      "lists[].tags: Swift.Array<Swift.String> array",
      "lists[].tags[]: Swift.String string",
      // An optional identified array: the array's type, marked optional.
      "maybeRows: \(rows) identifiedArray optional key \(uuid)",
    ]
    expected += plainLines("maybeRows[]")
    expected += [
      "names: Swift.Array<\(own)WithOptional> array",
      "names[]: \(own)WithOptional struct",
      // The first element's name is nil.
      "names[].name: Swift.String string optional",
      "phases: Swift.Array<\(own)WithEnum> array",
      "phases[]: \(own)WithEnum struct",
      // One case in each element.
      "phases[].phase: \(own)Phase enum cases done,idle,loading",
      "phases[].phase.done: Swift.String string",
      "phases[].phase.loading.progress: Swift.Int integer",
      "plain: Swift.Array<\(own)Plain> array",
    ]
    expected += plainLines("plain[]")
    expected += [
      "points: Swift.Set<Swift.Int> set",
      "points[]: Swift.Int integer",
      "rows: \(rows) identifiedArray key \(uuid)",
    ]
    expected += plainLines("rows[]")
    expected += [
      "shapes: Swift.Array<\(own)WithExistential> array",
      "shapes[]: \(own)WithExistential struct",
      // The first element's shape is a circle, the second's a square.
      "shapes[].shape: \(own)Circle struct",
      "shapes[].shape.label: Swift.String string",
      "shapes[].shape.radius: Swift.Double floatingPoint",
      "shapes[].shape.side: Swift.Int integer",
    ]
    XCTAssertEqual(walk(state), expected)
  }

  fileprivate struct Shapes: Encodable {
    var shapes: [any Shape]
    var todos: IdentifiedArrayOf<Plain>

    enum CodingKeys: String, CodingKey { case shapes, todos }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var shapes = container.nestedUnkeyedContainer(forKey: .shapes)
      for shape in self.shapes { try shapes.encode(shape) }
      try container.encode(todos, forKey: .todos)
    }
  }

  /// A recording's start: an element beyond the first ones a walk looks at, whose fields are
  /// not the first element's, is found by the check of the encoded state (the elements
  /// before it, all leaves, pass by the keys the first one noted), and a collection of fixed
  /// elements is walked for one.
  func testTheStartFindsAnElementBeyondTheWalkWithOtherFieldsThanTheFirst() throws {
    var shapes: [any Shape] = (0..<100).map { Circle(radius: Double($0)) }
    shapes[80] = Square(side: 3, label: "sq")
    let date = Date(timeIntervalSinceReferenceDate: 0)
    let todos = (0..<100).map { index in
      Plain(
        id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(index))),
        title: "t", done: false, at: date, link: URL(string: "https://example.com")!,
        point: Point(x: 0, y: 0), size: 0)
    }
    let state = Shapes(shapes: shapes, todos: IdentifiedArrayOf(uniqueElements: todos))
    var encoder = IncrementalEncoder()
    let encoded = try encoder.encode(state)
    var types = SwiftTypeCollector()
    types.noteStart(state, value: encoded.value)
    let own = "TraceRecorderTests.FixedWalkTypesTests.(private)."
    let uuid = "FoundationEssentials.UUID"
    XCTAssertTrue(types.isDirty)
    XCTAssertEqual(
      SwiftTypeEntry.lines(types.table.state),
      [
        ": \(own)Shapes struct",
        "shapes: Swift.Array<\(own)Shape> array",
        "shapes[]: \(own)Circle struct",
        "shapes[].label: Swift.String string",
        "shapes[].radius: Swift.Double floatingPoint",
        "shapes[].side: Swift.Int integer",
        "todos: ComposableCore.IdentifiedArray<\(uuid), \(own)Plain> identifiedArray key \(uuid)",
        "todos[]: \(own)Plain struct",
        "todos[].at: FoundationEssentials.Date date",
        "todos[].done: Swift.Bool bool",
        "todos[].id: \(uuid) uuid",
        "todos[].link: FoundationEssentials.URL url",
        "todos[].point: \(own)Point struct",
        "todos[].point.x: Swift.Int32 integer",
        "todos[].point.y: Swift.Float floatingPoint",
        "todos[].size: Swift.UInt8 integer",
        "todos[].title: Swift.String string",
      ])
  }
}
