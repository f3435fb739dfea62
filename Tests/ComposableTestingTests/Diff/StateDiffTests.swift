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
          address: Address(
      -     city: "Seoul"
      +     city: "Busan"
            … (1 unchanged)
          )
          … (1 unchanged)
        )
      """
    )
  }

  func testCollectionOfDifferentLengthIsShownWhole() {
    XCTAssertEqual(
      StateDiff.render(["a"], ["a", "b"]),
      """
      - [
      -   [0]: "a"
      - ]
      + [
      +   [0]: "a"
      +   [1]: "b"
      + ]
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
        name: ""
        tags: []
        address: Address(
          city: ""
          zip: 0
        )
        sheet: Address(
          city: "x"
          zip: 2
        )
      )
      """
    )
  }
}
