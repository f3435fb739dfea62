import ComposableCore
import XCTest

final class ReducerNodeTests: XCTestCase {
  func testParentTreeNamesEveryReducerAndStatePath() {
    XCTAssertEqual(
      reducerNode(of: Parent()).render(),
      """
      Parent
        sequence
          scope \\.counter (Counter)
            Counter
              reduce
          forEach \\.rows (Row)
            ifLet \\.detail (Counter)
              reduce
              Counter
                reduce
            Row
      """
    )
  }

  func testGivenNameReplacesKeyPath() {
    let reducer = Scope(state: \Parent.State.counter, action: .counter, name: "main counter") {
      Counter()
    }
    XCTAssertEqual(reducerNode(of: reducer).label, "main counter")
  }

  func testKeyPathLabelDropsTheRootTypeName() {
    XCTAssertEqual(keyPathLabel(\Parent.State.counter.count, name: nil), "\\.counter.count")
  }
}
