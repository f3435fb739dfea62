@testable import ComposableTesting
import ComposableCore
import Foundation
import XCTest

private struct Profile: Equatable {
  var name: String
  var tags: [String]
  var address: Address
  @PresentationState var sheet: Address?
}

private struct Item: Equatable {
  var id: UUID
  var title: String
}

private struct Visit: Equatable {
  var at: Date
}

private struct Address: Equatable {
  var city: String
  var zip: Int
}

final class StateDiffTests: XCTestCase {
  func testNestedChangeShowsPathAndFoldsSiblings() {
    let first = Profile(
      name: "Blob", tags: ["a"], address: Address(city: "Seoul", zip: 1), sheet: nil)
    var second = first
    second.address.city = "Busan"
    XCTAssertEqual(
      StateDiff.render(first, second),
      """
        Profile(
          … (2 unchanged)
          address: (
      -     city: "Seoul",
      +     city: "Busan",
            … (1 unchanged)
          ),
          … (1 unchanged)
        )
      """
    )
  }

  func testCollectionOfDifferentLengthShowsWhatWasInserted() {
    XCTAssertEqual(
      StateDiff.render(["a"], ["a", "b"]),
      """
        [
          … (1 unchanged)
      +   [1]: "b"
        ]
      """
    )
  }

  func testPresentationStateIsShownUnderItsPropertyName() {
    let value = Profile(
      name: "", tags: [], address: Address(city: "", zip: 0),
      sheet: Address(city: "x", zip: 2))
    XCTAssertEqual(
      StateDiff.dump(value),
      """
      Profile(
        name: "",
        tags: [],
        address: (city: "", zip: 0),
        sheet: (city: "x", zip: 2)
      )
      """
    )
  }

  /// Foundation's `UUID` reflects no children on Linux: without its text, two states that
  /// differ only in an id rendered alike and the diff showed no `-`/`+` lines.
  func testAStateDifferingOnlyInAUUIDShowsTheUUIDs() {
    let first = Item(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, title: "x")
    var second = first
    second.id = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
    XCTAssertEqual(
      StateDiff.render(first, second),
      """
        Item(
      -   id: "00000000-0000-0000-0000-000000000001",
      +   id: "00000000-0000-0000-0000-00000000000A",
          … (1 unchanged)
        )
      """
    )
  }

  func testEncodableValuesLookAsTheTraceRecordsThem() {
    struct Todo: Codable, Equatable {
      var id: Int
      var title: String
    }
    XCTAssertEqual(
      StateDiff.render(
        [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")], [Todo(id: 2, title: "b")]),
      """
        [
      -   [id: 1]: (id: 1, title: "a"),
          … (1 unchanged)
        ]
      """
    )
  }

  /// A failing assertion on a `Date` shows the date as the trace and the inspector do, not
  /// seconds since 2001.
  func testDatesReadAsISO8601Text() {
    XCTAssertEqual(
      StateDiff.render(
        Visit(at: Date(timeIntervalSince1970: 1_778_572_800)),
        Visit(at: Date(timeIntervalSince1970: 1_778_572_800.25))),
      """
        Visit(
      -   at: "2026-05-12T08:00:00Z"
      +   at: "2026-05-12T08:00:00.25Z"
        )
      """
    )
  }
}
