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

  func testKeyPathLabelOfAComputedPropertyKeepsItsTypeNotItsAddress() {
    struct Holder {
      var stored = 0
      var computed: Int { stored + 1 }
    }
    // Linux prints `\Holder.<computed 0x… (Int)>`; the address differs from run to run.
    XCTAssertEqual(keyPathLabel(\Holder.computed, name: nil), "\\.<computed Int>")
  }
}
