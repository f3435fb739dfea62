import TestSupport
import TraceValues
import XCTest

final class DiffRendererTests: XCTestCase {
  let old = SampleValues.state(todos: [SampleValues.todo(1, "Milk"), SampleValues.todo(2, "Eggs")])
  let new = SampleValues.state(
    count: 1, todos: [SampleValues.todo(1, "Milk", done: true), SampleValues.todo(3, "Tea")],
    mode: .enumCase("loading", [TraceField("_0", .int(3))]))

  func testUnchangedSiblingsFoldAndChangesShowTheirAncestors() {
    var out = ""
    DiffRenderer(width: 60).render(from: old, to: new, typeName: "AppFeature.State", into: &out)
    XCTAssertEqual(
      out,
      """
        AppFeature.State(
      -   count: 0,
      +   count: 1,
          … (1 unchanged)
          todos: [
            [id: 1]: (
              … (2 unchanged)
      -       done: false
      +       done: true
            ),
      -     [id: 2]: (id: 2, title: "Eggs", done: false),
      +     [id: 3]: (id: 3, title: "Tea", done: false)
          ],
      -   mode: .idle,
      +   mode: .loading(3),
          … (1 unchanged)
        )

      """)
  }

  func testContextKeepsNeighbouringSiblings() {
    var out = ""
    DiffRenderer(width: 60, context: 1).render(from: old, to: new, into: &out)
    XCTAssertEqual(
      out,
      """
        (
      -   count: 0,
      +   count: 1,
          child: (isOn: false, name: "child"),
          todos: [
            [id: 1]: (
              … (1 unchanged)
              title: "Milk",
      -       done: false
      +       done: true
            ),
      -     [id: 2]: (id: 2, title: "Eggs", done: false),
      +     [id: 3]: (id: 3, title: "Tea", done: false)
          ],
      -   mode: .idle,
      +   mode: .loading(3),
          banner: "\\u{1B}[31mhi"
        )

      """)
  }

  func testPathOfEveryChangeIsReported() {
    let paths = DiffRenderer(width: 60).diff(from: old, to: new).paths.map(\.description)
    XCTAssertEqual(
      paths, ["count", "todos[id: 1].done", "todos[id: 2]", "todos[id: 3]", "mode"])
  }

  func testInsertionAtTheFrontOfAPlainArrayIsOneLine() {
    var out = ""
    DiffRenderer(width: 60).render(
      from: .array((0..<10).map { .int($0) }),
      to: .array([.int(-1)] + (0..<10).map { .int($0) }), into: &out)
    XCTAssertEqual(out, "  [\n+   [0]: -1,\n    … (10 unchanged)\n  ]\n")
  }

  func testEqualValuesPrintNoChanges() {
    var out = ""
    DiffRenderer(width: 60).render(from: old, to: old, into: &out)
    XCTAssertEqual(out, "(no changes)\n")
  }

  func testDiffFormatIsAValue() {
    var out = ""
    DiffRenderer(width: 60, format: DiffFormat(first: "<", second: ">", both: "|"))
      .render(
        from: .object([TraceField("a", .int(1))]), to: .object([TraceField("a", .int(2))]),
        into: &out)
    XCTAssertEqual(out, "| (\n<   a: 1\n>   a: 2\n| )\n")
  }

  func testPaintDecoratesWholeLinesByKind() {
    var out = ""
    DiffRenderer(width: 60)
      .render(
        from: .object([TraceField("a", .int(1))]), to: .object([TraceField("a", .int(2))]),
        into: &out,
        paint: { kind, text in kind == .both ? text : "<\(kind == .first ? "r" : "g")>" + text })
    XCTAssertEqual(out, "  (\n<r>-   a: 1\n<g>+   a: 2\n  )\n")
  }

  func testPathsInsideAnEnumCaseNameTheCaseAsTracePathDoes() {
    let old: TraceValue = .object([
      TraceField("mode", .enumCase("loaded", [TraceField("_0", .int(1))])),
      TraceField("alert", .enumCase("shown", [TraceField("title", .string("a"))])),
    ])
    let new: TraceValue = .object([
      TraceField("mode", .enumCase("loaded", [TraceField("_0", .int(2))])),
      TraceField("alert", .enumCase("shown", [TraceField("title", .string("b"))])),
    ])
    let paths = DiffRenderer(width: 60).diff(from: old, to: new).paths
    XCTAssertEqual(paths.map(\.description), ["mode.loaded", "alert.shown.title"])
    XCTAssertEqual(paths.map { new.value(at: $0) }, [.int(2), .string("b")])
  }

  func testTextIsTheRenderingWithoutTheLastLineEnd() {
    let text = DiffRenderer().text(
      from: .array([.string("a")]), to: .array([.string("a"), .string("b")]), typeName: nil)
    XCTAssertEqual(text, "  [\n    … (1 unchanged)\n+   [1]: \"b\"\n  ]")
    XCTAssertEqual(DiffRenderer().text(from: .int(1), to: .int(1)), "(no changes)")
  }
}
