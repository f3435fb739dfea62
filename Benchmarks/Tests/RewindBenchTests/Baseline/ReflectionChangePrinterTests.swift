import Foundation
import XCTest

@testable import rewind_bench

final class ReflectionChangePrinterTests: XCTestCase {
  struct Item: Equatable {
    var id: Int
    var title: String
    var isDone: Bool
  }

  struct State: Equatable {
    var items: [Item]
    var filter: String?
  }

  enum Action {
    case toggle(id: Int)
    case clear
  }

  func testDumpShowsTypesLabelsIndicesAndQuotedStrings() {
    let state = State(items: [Item(id: 1, title: "Milk", isDone: false)], filter: nil)
    XCTAssertEqual(
      ReflectionDumper.dump(state),
      """
      State(
        items: [
          [0]: Item(
            id: 1,
            title: "Milk",
            isDone: false
          )
        ],
        filter: nil
      )
      """)
  }

  func testDumpShowsEnumCasesAndUUIDs() {
    XCTAssertEqual(ReflectionDumper.dump(Action.clear), "Action.clear")
    XCTAssertEqual(
      ReflectionDumper.dump(Action.toggle(id: 3)),
      """
      Action.toggle(
        id: 3
      )
      """)
    let id = UUID(uuidString: "7D0D0500-0000-4000-8000-000000000001")!
    XCTAssertEqual(ReflectionDumper.dump(id), "UUID(7D0D0500-0000-4000-8000-000000000001)")
  }

  func testPrintsOnlyTheChangedLinesInOrder() {
    var printer = ReflectionChangePrinter()
    printer.output.keepsText = true
    let old = State(
      items: [
        Item(id: 1, title: "Milk", isDone: false), Item(id: 2, title: "Eggs", isDone: false),
      ],
      filter: nil)
    var new = old
    new.items[1].isDone = true
    new.filter = "done"
    printer.printChanges(action: Action.toggle(id: 2), old: old, new: new)
    XCTAssertEqual(
      printer.output.text,
      """
      received action:
        Action.toggle(
          id: 2
        )
      -       isDone: false
      +       isDone: true
      -   filter: nil
      +   filter: "done"

      """)
    XCTAssertEqual(printer.output.byteCount, printer.output.text.utf8.count)
  }

  func testNoChangeSaysSo() {
    var printer = ReflectionChangePrinter()
    printer.output.keepsText = true
    let state = State(items: [], filter: nil)
    printer.printChanges(action: Action.clear, old: state, new: state)
    XCTAssertEqual(printer.output.text, "received action:\n  Action.clear\n  (No state changes)\n")
  }
}
