import ComposableCore
import XCTest

final class AnyCasePathTests: XCTestCase {
  func testEmbedAndExtract() {
    let path = AnyCasePath<Parent.Action, Counter.Action>.counter
    XCTAssertEqual(path.embed(.plus), .counter(.plus))
    XCTAssertEqual(path.extract(.counter(.plus)), .plus)
    XCTAssertNil(path.extract(.showDetail))
  }

  func testSameDeclarationIsTheSameIdentity() {
    XCTAssertEqual(
      AnyCasePath<Parent.Action, Counter.Action>.counter.id,
      AnyCasePath<Parent.Action, Counter.Action>.counter.id)
    XCTAssertNotEqual(
      AnyCasePath<Parent.Action, Counter.Action>.counter.id,
      AnyCasePath<Parent.Action, Counter.Action>.detail.id)
  }

  func testAppendingGoesDeeper() {
    let path = AnyCasePath<Parent.Action, IdentifiedAction<Int, Row.Action>>.rows
      .appending(IdentifiedAction<Int, Row.Action>.element)
    XCTAssertEqual(path.extract(.rows(.element(id: 2, action: .tick)))?.id, 2)
    XCTAssertEqual(path.embed((id: 5, action: .stop)), .rows(.element(id: 5, action: .stop)))
  }
}
