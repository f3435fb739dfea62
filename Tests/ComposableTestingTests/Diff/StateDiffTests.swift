@testable import ComposableTesting
import ComposableCore
import XCTest

private struct Profile: Equatable {
  var name: String
  var tags: [String]
  var address: Address
  @PresentationState var sheet: Address?
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
}
