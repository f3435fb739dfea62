import XCTest

@testable import rewind_bench

final class BenchOptionsTests: XCTestCase {
  func testParsesEveryOption() throws {
    let options = try BenchOptions(arguments: [
      "--quick", "--json", "out.json", "--only", "trace.", "--only", "inspector.info",
      "--inspector", "/x/inspector", "--keep",
    ])
    XCTAssertTrue(options.quick)
    XCTAssertEqual(options.jsonPath, "out.json")
    XCTAssertEqual(options.only, ["trace.", "inspector.info"])
    XCTAssertEqual(options.inspectorPath, "/x/inspector")
    XCTAssertTrue(options.keepsFiles)
    XCTAssertNil(options.child)
  }

  func testOnlySelectsByPrefixAndNoOnlySelectsAll() throws {
    let some = try BenchOptions(arguments: ["--only", "trace."])
    XCTAssertTrue(some.selects("trace.seek.1m"))
    XCTAssertFalse(some.selects("replay.throughput.counter"))
    XCTAssertTrue(try BenchOptions(arguments: []).selects("replay.throughput.counter"))
  }

  func testScratchNamesTheRunsDirectoryForACaseProcess() throws {
    let options = try BenchOptions(arguments: [
      "--quick", "--scratch", "/tmp/run", "--child", "case", "trace.seek.1m", "/tmp/run/r.json",
    ])
    XCTAssertTrue(options.quick)
    XCTAssertEqual(options.scratchDirectory, "/tmp/run")
    XCTAssertEqual(options.child, ["case", "trace.seek.1m", "/tmp/run/r.json"])
    XCTAssertNil(try BenchOptions(arguments: []).scratchDirectory)
  }

  func testCaseTimeLimitIsAPositiveNumberOfSeconds() throws {
    XCTAssertEqual(try BenchOptions(arguments: ["--case-time-limit", "0.5"]).caseTimeLimit, 0.5)
    XCTAssertNil(try BenchOptions(arguments: []).caseTimeLimit)
    for bad in ["0", "-3", "soon", "inf"] {
      XCTAssertThrowsError(try BenchOptions(arguments: ["--case-time-limit", bad])) { error in
        XCTAssertEqual(
          "\(error)", "--case-time-limit needs a number of seconds above 0, not '\(bad)'")
      }
    }
  }

  func testChildTakesTheRestOfTheArguments() throws {
    let options = try BenchOptions(arguments: ["--child", "memory", "bare", "10", "/tmp/x"])
    XCTAssertEqual(options.child, ["memory", "bare", "10", "/tmp/x"])
  }

  func testUnknownArgumentAndMissingValueAreErrors() {
    XCTAssertThrowsError(try BenchOptions(arguments: ["--fast"])) { error in
      XCTAssertEqual("\(error)", "unknown argument '--fast'")
    }
    XCTAssertThrowsError(try BenchOptions(arguments: ["--json"])) { error in
      XCTAssertEqual("\(error)", "--json needs a value")
    }
  }
}
