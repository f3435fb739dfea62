import TraceKit
import XCTest

@testable import InspectorKit

final class TreeRendererTests: XCTestCase {
  func testTreeUsesBoxDrawingAndAlignsCounts() {
    let root = TreeRenderer.Node(
      title: "Recorder AppFeature", steps: 1200, effects: 3,
      children: [
        .init(
          title: "Scope(counter) CounterFeature", steps: 1, effects: 1,
          children: [.init(title: "Reduce CounterFeature", steps: 1, effects: 1, children: [])]),
        .init(title: "Reduce AppFeature", steps: 1200, effects: 0, children: []),
      ])
    var out = ""
    TreeRenderer(width: 80).render(root, into: &out)
    XCTAssertEqual(
      out,
      """
      Recorder AppFeature               1,200 steps  3 effects
      ├─ Scope(counter) CounterFeature       1 step   1 effect
      │  └─ Reduce CounterFeature            1 step   1 effect
      └─ Reduce AppFeature              1,200 steps  0 effects

      """)
  }

  func testLongTitlesAreCutToTheWidth() {
    let root = TreeRenderer.Node(
      title: "Recorder " + String(repeating: "A", count: 60), steps: 2, effects: 0, children: [])
    var out = ""
    TreeRenderer(width: 40).render(root, into: &out)
    XCTAssertEqual(out, "Recorder AAAAAAAAAA…  2 steps  0 effects\n")
  }

  func testStepCountsFollowActionPrefixes() {
    let tree = ReducerTreeNode(
      kind: "Recorder", typeName: "App",
      children: [
        ReducerTreeNode(
          kind: "Scope", typeName: "Counter", statePath: "counter", actionPrefix: "counter"),
        ReducerTreeNode(
          kind: "forEach", typeName: "Row", statePath: "rows", actionPrefix: "rows.row"),
      ])
    let node = TreeCommand.count(
      tree, inherited: nil,
      ["counter.tapped": 3, "counterpart.tapped": 5, "rows.row.toggled": 2, "rows.added": 1],
      ["counter.tapped": 1, "rows.added": 4])
    XCTAssertEqual(node.steps, 11)
    XCTAssertEqual(node.effects, 5)
    XCTAssertEqual(node.children.map(\.steps), [3, 2])
    XCTAssertEqual(node.children.map(\.effects), [1, 0])
  }
}
