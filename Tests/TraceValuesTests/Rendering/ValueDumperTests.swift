import TestSupport
import TraceValues
import XCTest

final class ValueDumperTests: XCTestCase {
  func testDumpsStateAsIndentedTreeWithLeafContainersInline() {
    let state = SampleValues.state(
      count: 1, todos: [SampleValues.todo(1, "Milk", done: true), SampleValues.todo(3, "Tea")],
      mode: .enumCase("loading", [TraceField("_0", .int(3))]))
    var out = ""
    ValueDumper(width: 60).dump(state, typeName: "AppFeature.State", into: &out)
    XCTAssertEqual(
      out,
      """
      AppFeature.State(
        count: 1,
        child: (isOn: false, name: "child"),
        todos: [
          [0]: (id: 1, title: "Milk", done: true),
          [1]: (id: 3, title: "Tea", done: false)
        ],
        mode: .loading(3),
        banner: "\\u{1B}[31mhi"
      )

      """)
  }

  func testLongCollectionsFoldWithGroupedCount() {
    let big = TraceValue.array((0..<10_003).map { .int($0) })
    var out = ""
    ValueDumper(width: 60, maxItems: 3).dump(big, into: &out)
    XCTAssertEqual(out, "[\n  [0]: 0,\n  [1]: 1,\n  [2]: 2,\n  … 10,000 more\n]\n")
  }

  func testContainerTooWideForTheLineIsExpanded() {
    let value = TraceValue.object([
      TraceField("title", .string(String(repeating: "x", count: 30))),
      TraceField("note", .string(String(repeating: "y", count: 30))),
    ])
    var out = ""
    ValueDumper(width: 40).dump(value, into: &out)
    XCTAssertEqual(
      out,
      """
      (
        title: "\(String(repeating: "x", count: 30))",
        note: "\(String(repeating: "y", count: 30))"
      )

      """)
  }

  func testEnumCasesReflectedValuesBytesAndEmptyContainers() {
    let value = TraceValue.object([
      TraceField(
        "alert",
        .enumCase(
          "shown",
          [
            TraceField("title", .string("Hi")), TraceField("_1", .int(2)),
          ])),
      TraceField("none", .null),
      TraceField("empty", .array([])),
      TraceField(
        "opaque",
        .reflected(
          typeName: "Clock",
          .object([
            TraceField("ticks", .uint(UInt64.max))
          ]))),
      TraceField("data", .bytes([0, 15, 255])),
      TraceField("ratio", .double(0.5)),
    ])
    var out = ""
    ValueDumper(width: 80).dump(value, into: &out)
    XCTAssertEqual(
      out,
      """
      (
        alert: .shown(title: "Hi", 2),
        none: nil,
        empty: [],
        opaque: Clock(ticks: 18446744073709551615),
        data: <3 bytes: 000fff>,
        ratio: 0.5
      )

      """)
  }

  func testInlineTextFoldsLongArraysWithoutIndexLabels() {
    let dumper = ValueDumper(width: .max, maxItems: 2)
    XCTAssertEqual(
      dumper.inlineText(.array([.int(1), .int(2), .int(3), .int(4)])), "[1, 2, … 2 more]")
  }

  func testLargeDictionariesFoldLikeArrays() {
    let dictionary = TraceValue.object((0..<5).map { TraceField("k\($0)", .int(Int64($0))) })
    var out = ""
    ValueDumper(width: 10, maxItems: 2).dump(dictionary, into: &out)
    XCTAssertEqual(out, "(\n  k0: 0,\n  k1: 1,\n  … 3 more\n)\n")
  }

  func testKeysThatAreNotASCIIIdentifiersAreQuotedAsInPaths() {
    let value = TraceValue.object([
      TraceField("a key", .int(1)), TraceField("이름", .string("블롭")),
    ])
    XCTAssertEqual(ValueDumper().inlineText(value), #"("a key": 1, "이름": "블롭")"#)
  }

  func testOutlineOpensOnlyWhatIsExpandedAndGivesEachLineItsPath() throws {
    let state = SampleValues.state(
      todos: [SampleValues.todo(1, "Milk"), SampleValues.todo(3, "Tea")],
      mode: .enumCase("loaded", [TraceField("_0", .array([.int(7)]))]))
    var lines: [ValueDumper.OutlineLine] = []
    let expanded: Set<TracePath> = [
      try TracePath(parsing: "todos"), try TracePath(parsing: "mode"),
      try TracePath(parsing: "mode.loaded"),
    ]
    ValueDumper(width: 60).outline(state, typeName: "App.State", expanded: expanded) {
      lines.append($0)
    }
    XCTAssertEqual(
      lines.map { String(repeating: " ", count: $0.indent) + $0.text + "  @" + "\($0.path)" },
      [
        "App.State(  @.",
        "  count: 0,  @count",
        #"  child: (isOn: false, name: "child"),  @child"#,
        "  todos: [  @todos",
        #"    [0]: (id: 1, title: "Milk", done: false),  @todos[id: 1]"#,
        #"    [1]: (id: 3, title: "Tea", done: false)  @todos[id: 3]"#,
        "  ],  @todos",
        "  mode: .loaded(  @mode",
        "    [  @mode.loaded",
        "      [0]: 7  @mode.loaded[0]",
        "    ]  @mode.loaded",
        "  ),  @mode",
        #"  banner: "\u{1B}[31mhi"  @banner"#,
        ")  @.",
      ])
    XCTAssertEqual(
      lines.map(\.kind),
      [.open, .leaf, .closed, .open, .closed, .closed, .close, .open, .open, .leaf, .close,
       .close, .leaf, .close])
    for line in lines { XCTAssertNotNil(state.value(at: line.path), "\(line.path)") }
  }

  func testKeysThatAreNotIdentifiersAreQuotedAndEscapedLikeValues() {
    // A dictionary's keys can hold anything: "count: 5, id" must not pass for two fields.
    let value = TraceValue.object([
      TraceField("count", .int(1)),
      TraceField("count: 5, id", .int(2)),
      TraceField("New York", .int(3)),
      TraceField("\u{1B}[2J", .int(4)),
      TraceField("_0", .int(5)),
      TraceField("9lives", .int(6)),
    ])
    var out = ""
    ValueDumper(width: 200).dump(value, into: &out)
    XCTAssertEqual(
      out,
      #"(count: 1, "count: 5, id": 2, "New York": 3, "\u{1B}[2J": 4, _0: 5, "9lives": 6)"#
        + "\n")
  }
}
