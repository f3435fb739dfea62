import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import InspectorKit
@testable import TraceRecorder

/// The recorder's Swift type table (`SwiftTypeTable`) and the test `inspector testgen` writes
/// from it, on a feature the fixtures do not have (`Bookcase`).
@MainActor
final class SwiftTypeTableTests: XCTestCase {
  private func recordBookcase(to path: String) async throws {
    let clock = TestClock()
    let recorder = try Recorder(path: path, configuration: .init(clock: clock))
    let store = Store(initialState: Bookcase.State()) {
      Bookcase().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 1_778_572_800.25))
    }
    let first = Bookcase.BookID(rawValue: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)
    store.send(.add(title: "Dune"))
    store.send(.add(title: "Emma"))
    await clock.advance(by: .milliseconds(250))
    store.send(.toggle(first))
    store.send(.openEditor)
    store.send(.query("sea"))
    store.send(.rate("Dune", 5))
    store.send(.fail(reason: "offline", code: -1))
    store.send(.sortBy(.recent))
    store.send(.remove(first))
    recorder.finish()
    await recorder.waitUntilFinished()
  }

  func testTheTableNamesEveryPartsTypeIncludingThoseThatAppearLater() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("bookcase.rewind")
    try await recordBookcase(to: path)
    let table = try XCTUnwrap(try TraceReader(path: path).swiftTypes())
    let state = SwiftTypeEntry.lines(table.state)
    XCTAssertEqual(
      state,
      [
        ": TraceRecorderTests.Bookcase.State struct",
        "books: ComposableCore.IdentifiedArray<TraceRecorderTests.Bookcase.BookID, "
          + "TraceRecorderTests.Bookcase.Book> identifiedArray key TraceRecorderTests.Bookcase.BookID",
        "books[]: TraceRecorderTests.Bookcase.Book struct",
        "books[].id: TraceRecorderTests.Bookcase.BookID struct",
        "books[].id.rawValue: FoundationEssentials.UUID uuid",
        "books[].isRead: Swift.Bool bool",
        "books[].title: Swift.String string",
        "editor: TraceRecorderTests.Bookcase.Editor struct optional",
        "editor.query: Swift.String string",
        "editor.suggestions: Swift.Array<Swift.String> array",
        "editor.suggestions[]: Swift.String string",
        "link: FoundationEssentials.URL url optional",
        "openedAt: FoundationEssentials.Date date optional",
        "ratings: Swift.Dictionary<Swift.String, Swift.Int> dictionary key Swift.String",
        "ratings[]: Swift.Int integer",
        "sort: TraceRecorderTests.Bookcase.Sort enum cases recent,title raw recent=recent,title=title",
        "status: TraceRecorderTests.Bookcase.Status enum cases failed,idle",
        "status.failed.code: Swift.Int integer",
        "status.failed.reason: Swift.String string",
      ])
    let actions = SwiftTypeEntry.lines(table.action)
    XCTAssertEqual(
      actions,
      [
        ": TraceRecorderTests.Bookcase.Action enum cases "
          + "add,fail,openEditor,query,rate,remove,sortBy,toggle",
        "add.title: Swift.String string",
        "fail.code: Swift.Int integer",
        "fail.reason: Swift.String string",
        "query: Swift.String string",
        "rate._0: Swift.String string",
        "rate._1: Swift.Int integer",
        "remove: TraceRecorderTests.Bookcase.BookID struct",
        "remove.rawValue: FoundationEssentials.UUID uuid",
        "sortBy: TraceRecorderTests.Bookcase.Sort enum cases recent raw recent=recent",
        "toggle: TraceRecorderTests.Bookcase.BookID struct",
        "toggle.rawValue: FoundationEssentials.UUID uuid",
      ])
  }

  func testTheGeneratedTestIsPlainSwiftWhereTheTypesAreKnown() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("bookcase.rewind")
    try await recordBookcase(to: path)
    let inspector = Inspector(
      terminal: FixedTerminal(width: 80, colour: false), interruption: .never,
      open: { path throws(InspectorError) in try TraceFileSource(path: path) })
    var out = ""
    var err = ""
    let status = inspector.run(["testgen", path], out: &out, err: &err)
    XCTAssertEqual(err, "")
    XCTAssertEqual(status, 0)
    // `BookcaseTraceTests` is this output, compiled and run in this suite: without its
    // import of this very module, which a file cannot import.
    let committed = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("BookcaseTraceTests.swift"), encoding: .utf8)
    XCTAssertEqual(
      out,
      committed.replacingOccurrences(
        of: "import XCTest\n\n", with: "import XCTest\n\n@testable import TraceRecorderTests\n\n"))
  }

  func testTheGeneratedTestFailsAgainstABuggyReducer() async throws {
    let issues = try await Bookcase.$bug.withValue(.ratingIgnoresStars) {
      try await expectIssues {
        // Linux's XCTest makes a case with a name and a closure; only the method is run.
        try await BookcaseTraceTests(name: "testSteps1To9", testClosure: { _ in })
          .testSteps1To9()
      }
    }
    // Step 6, `$0.ratings["Dune"] = 5`: the bug rated it 1.
    XCTAssertEqual(
      issues.map { $0.message },
      [
        """
        A state change does not match expectation:

          Bookcase.State(
            … (3 unchanged)
            ratings: (
        -     Dune: 5
        +     Dune: 1
            ),
            … (3 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ])
  }
}
