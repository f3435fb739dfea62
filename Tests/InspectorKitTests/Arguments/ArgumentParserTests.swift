import XCTest

@testable import InspectorKit

final class ArgumentParserTests: XCTestCase {
  func parse(_ arguments: [String]) throws(InspectorError) -> ParsedArguments {
    guard case .run(let parsed) = try ArgumentParser.parse(arguments) else {
      throw .usage("expected a command", where: "test")
    }
    return parsed
  }

  func error(_ arguments: [String]) -> String? {
    do {
      _ = try ArgumentParser.parse(arguments)
      return nil
    } catch {
      return error.line
    }
  }

  func testOptionsMayComeAnywhereAndTakeSeparateOrInlineValues() throws {
    let parsed = try parse(["diff", "--context", "2", "t.rewind", "4", "--path=todos", "--json"])
    XCTAssertEqual(parsed.command, "diff")
    XCTAssertEqual(parsed.positionals, ["t.rewind", "4"])
    XCTAssertEqual(parsed.values, ["--context": "2", "--path": "todos"])
    XCTAssertEqual(parsed.flags, ["--json"])
    XCTAssertEqual(try parsed.integer("--context"), 2)
  }

  func testDoubleDashEndsOptions() throws {
    let parsed = try parse(["info", "--", "--odd-name.rewind"])
    XCTAssertEqual(parsed.positionals, ["--odd-name.rewind"])
  }

  func testEachMistakeIsOneLineNamingIt() {
    XCTAssertEqual(
      error(["log", "t", "--from"]), "inspector: missing value N for option '--from' (log)")
    XCTAssertEqual(
      error(["log", "t", "--from", "--json"]),
      "inspector: missing value N for option '--from' (log)")
    XCTAssertEqual(error(["log", "t", "--frm", "1"]), "inspector: unknown option '--frm' (log)")
    XCTAssertEqual(
      error(["log", "t", "--limit", "1", "--limit", "2"]),
      "inspector: option '--limit' given more than once (log)")
    XCTAssertEqual(error(["diff", "t"]), "inspector: missing argument A (diff)")
    XCTAssertEqual(error(["tree", "t", "u"]), "inspector: unexpected argument 'u' (tree)")
    XCTAssertEqual(error(["help", "nope"]), "inspector: unknown command 'nope' (inspector help)")
  }

  func testHelpAnywhereAfterTheCommandShowsTheCommandsHelp() throws {
    guard case .help(let text) = try ArgumentParser.parse(["show", "t", "--bogus", "-h"]) else {
      return XCTFail("expected help")
    }
    XCTAssertTrue(text.hasPrefix("inspector show: the full state after a step\n"))
    XCTAssertTrue(
      text.hasSuffix("EXAMPLE:\n  inspector show bug.rewind 120 --path 'todos[id: 3]'\n"))
  }

  func testIntegerValuesAreChecked() throws {
    let parsed = try parse(["log", "t", "--limit", "ten"])
    XCTAssertThrowsError(try parsed.integer("--limit")) { error in
      XCTAssertEqual(
        (error as? InspectorError)?.line,
        "inspector: invalid value 'ten' for --limit: expected a non-negative integer (log)")
    }
  }
}
