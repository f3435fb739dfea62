import Foundation
import TestSupport
import XCTest

/// `follow` against a real writer process that appends steps while the inspector watches.
final class FollowEndToEndTests: EndToEndTestCase {
  /// Generous: the machine may be loaded; the follower itself polls every 50 ms.
  let patience: TimeInterval = 60

  func waitUntil(_ what: String, _ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(patience)
    while !condition() {
      if Date() > deadline {
        XCTFail("timed out waiting for \(what)")
        return
      }
      usleep(20_000)
    }
  }

  func testFollowPrintsEveryStepOnceAndStopsWhenTheWriterClosesTheTrace() throws {
    let writer = try BuiltProducts.start(
      "inspector-test-writer", ["live.rewind", "--steps", "16", "--delay-ms", "40"],
      in: directory.url)
    let trace = directory.url.appendingPathComponent("live.rewind")
    waitUntil("the writer to create the trace") {
      FileManager.default.fileExists(atPath: trace.path)
    }
    // The writer commits step 0 in the same transaction that creates the file; wait until a
    // reader can open it.
    waitUntil("the trace to be readable") {
      (try? inspect(["info", "TRACE"], trace: trace).status) == 0
    }
    let follower = try BuiltProducts.start(
      "inspector", ["follow", "live.rewind", "--from-start"], in: directory.url)
    writer.process.waitUntilExit()
    XCTAssertEqual(writer.process.terminationStatus, 0)
    waitUntil("the follower to stop") { !follower.process.isRunning }
    let output = follower.output()
    XCTAssertEqual(output.status, 0)
    XCTAssertEqual(output.err, "")
    let lines = output.out.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 18, output.out)
    XCTAssertEqual(
      lines.dropLast().map { $0.prefix(6).trimmingCharacters(in: .whitespaces) },
      (0...16).map(String.init))
    XCTAssertEqual(lines.last, "(trace closed after step 16)")
    XCTAssertEqual(
      lines[6], "     6  00:00.750  effect 7e1a0c11  child.timerTicked  → child.ticks")
    // The writer waited for the follower to let go before leaving WAL mode: one file.
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        .filter { $0.hasPrefix("live.rewind") }, ["live.rewind"])
  }

  func testFollowEndsWhenTheWriterIsGone() throws {
    let (writer, trace) = try startSampleWriter(steps: 100_000, delayMillis: 20)
    let follower = try BuiltProducts.start(
      "inspector", ["follow", "live.rewind"], in: directory.url)
    usleep(300_000)
    kill(writer.process.processIdentifier, SIGKILL)
    writer.process.waitUntilExit()
    waitUntil("the follower to stop") { !follower.process.isRunning }
    let output = follower.output()
    XCTAssertEqual(output.status, 0)
    XCTAssertEqual(output.err, "")
    let info = try inspect(["info", "TRACE", "--json"], trace: trace)
    let last = try XCTUnwrap(
      info.out.split(separator: ",").first { $0.hasPrefix("\"steps\":") }
        .flatMap { Int($0.dropFirst(8)) })
    XCTAssertTrue(
      output.out.hasSuffix("(writer gone after step \(last); the trace was not closed)\n"),
      output.out)
    XCTAssertTrue(info.out.contains("\"complete\":false,\"writerGone\":true"), info.out)
    let text = try inspect(["info", "TRACE"], trace: trace).out
    XCTAssertTrue(
      text.split(separator: "\n").contains {
        $0.hasPrefix("complete ") && $0.hasSuffix("  no (writer gone)")
      }, text)
  }

  /// Starts the sample writer on `live.rewind` and waits until a reader can open the trace.
  func startSampleWriter(steps: Int, delayMillis: Int) throws
    -> (writer: BuiltProducts.Running, trace: URL)
  {
    let writer = try BuiltProducts.start(
      "inspector-test-writer",
      ["live.rewind", "--steps", String(steps), "--delay-ms", String(delayMillis)],
      in: directory.url)
    let trace = directory.url.appendingPathComponent("live.rewind")
    waitUntil("the trace to be readable") {
      FileManager.default.fileExists(atPath: trace.path)
        && (try? inspect(["info", "TRACE"], trace: trace).status) == 0
    }
    return (writer, trace)
  }

  func testFollowWithoutFromStartPrintsOnlyNewSteps() throws {
    let (writer, _) = try startSampleWriter(steps: 120, delayMillis: 25)
    let follower = try BuiltProducts.start(
      "inspector", ["follow", "live.rewind"], in: directory.url)
    writer.process.waitUntilExit()
    waitUntil("the follower to stop") { !follower.process.isRunning }
    let output = follower.output()
    XCTAssertEqual(output.status, 0)
    let steps = output.out.split(separator: "\n").dropLast()
      .compactMap { Int($0.prefix(6).trimmingCharacters(in: .whitespaces)) }
    // It attached after step 0 was written, so it starts later, and never skips or repeats.
    XCTAssertGreaterThan(steps.first ?? 0, 0)
    XCTAssertEqual(steps, Array((steps.first ?? 0)...120))
    XCTAssertTrue(output.out.hasSuffix("(trace closed after step 120)\n"))
  }

  func testCtrlCStopsFollowingCleanly() throws {
    let writer = try BuiltProducts.start(
      "inspector-test-writer", ["live.rewind", "--steps", "100000", "--delay-ms", "20"],
      in: directory.url)
    defer {
      writer.process.terminate()
      writer.process.waitUntilExit()
    }
    let trace = directory.url.appendingPathComponent("live.rewind")
    waitUntil("the trace to be readable") {
      FileManager.default.fileExists(atPath: trace.path)
        && (try? inspect(["info", "TRACE"], trace: trace).status) == 0
    }
    let follower = try BuiltProducts.start(
      "inspector", ["follow", "live.rewind", "--from-start"], in: directory.url)
    waitUntil("the first steps") { follower.currentOut.contains("counter.incrementTapped") }
    kill(follower.process.processIdentifier, SIGINT)
    waitUntil("the follower to stop") { !follower.process.isRunning }
    let output = follower.output()
    XCTAssertEqual(output.status, 0)
    XCTAssertEqual(follower.process.terminationReason, .exit)
    XCTAssertEqual(output.err, "")
    XCTAssertTrue(output.out.hasPrefix("     0  00:00.000  initial\n"), output.out)
    XCTAssertTrue(output.out.hasSuffix("\n"))
  }

  func testFollowStartedBeforeTheWriterWaitsForTheTraceAndPrintsEveryStep() throws {
    // The follower starts first: there is no file yet, then one without its first commit.
    let follower = try BuiltProducts.start(
      "inspector", ["follow", "live.rewind", "--from-start", "--wait", "120"],
      in: directory.url)
    usleep(300_000)
    XCTAssertTrue(follower.process.isRunning, "follow gave up before the writer started")
    let writer = try BuiltProducts.start(
      "inspector-test-writer", ["live.rewind", "--steps", "16", "--delay-ms", "20"],
      in: directory.url)
    writer.process.waitUntilExit()
    XCTAssertEqual(writer.process.terminationStatus, 0)
    waitUntil("the follower to stop") { !follower.process.isRunning }
    let output = follower.output()
    XCTAssertEqual(output.status, 0)
    XCTAssertEqual(output.err, "")
    let lines = output.out.split(separator: "\n").map(String.init)
    XCTAssertEqual(
      lines.dropLast().map { $0.prefix(6).trimmingCharacters(in: .whitespaces) },
      (0...16).map(String.init), output.out)
    XCTAssertEqual(lines.last, "(trace closed after step 16)")
  }

  func testFollowOfATraceThatNeverAppearsFailsWithOneLineAfterTheWait() throws {
    let output = try BuiltProducts.run(
      "inspector", ["follow", "never.rewind", "--wait", "1"], in: directory.url)
    XCTAssertEqual(output.out, "")
    XCTAssertEqual(
      output.err,
      "inspector: no readable trace after waiting 1 s (--wait): no such file (never.rewind)\n")
    XCTAssertEqual(output.status, 2)
  }

  func testFollowOfAFileThatNeverBecomesATraceNamesWhatIsWrong() throws {
    let empty = directory.url.appendingPathComponent("empty.rewind")
    XCTAssertTrue(FileManager.default.createFile(atPath: empty.path, contents: Data()))
    let output = try BuiltProducts.run(
      "inspector", ["follow", "empty.rewind", "--wait", "0"], in: directory.url)
    XCTAssertEqual(output.out, "")
    XCTAssertEqual(
      output.err,
      "inspector: no readable trace after waiting 0 s (--wait): "
        + "not a SQLite database, so not a Rewind trace (empty.rewind)\n")
    XCTAssertEqual(output.status, 2)
  }
}
