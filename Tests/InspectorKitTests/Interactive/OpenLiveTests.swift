import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import InspectorKit

/// A trace still being written, read by a session in the same process: each `tick()` after a
/// commit shows the new steps (no timing: the test commits, then ticks).
final class OpenLiveTests: XCTestCase {
  func testNewStepsAppearAndTheCursorFollowsOnlyFromTheLastStep() throws {
    let directory = try TemporaryDirectory()
    let trace = try GrowingTrace(path: directory.path("live.rewind"))
    for _ in 0..<5 { try trace.append() }
    let session = try OpenSession(source: try TraceFileSource(path: trace.path))
    session.resize(width: 80, height: 16)
    try session.press("G")
    XCTAssertEqual(session.model.cursor, 5)

    try trace.append()
    try trace.append(note: "two")
    XCTAssertTrue(try session.tick())
    XCTAssertEqual(session.model.cursor, 7, "on the last step, the cursor follows")
    let frame = try session.screen()
    XCTAssertTrue(frame.lines.contains { $0.hasPrefix(" 7 user     noteAdded") }, frame.text)

    try session.press("k")
    try trace.append()
    XCTAssertTrue(try session.tick())
    XCTAssertEqual(session.model.cursor, 6, "elsewhere, it stays")
    XCTAssertEqual(session.lastStep, 8)
    XCTAssertFalse(try session.tick(), "nothing new")

    try trace.close()
    try session.tick()
    XCTAssertEqual(session.writerState, .closed)
    XCTAssertTrue(
      try session.screen().lines.last!.hasPrefix(" step 6 of 8 · 00:00.600 · user · complete"))
  }

  func testSearchCountsFollowTheGrowingTrace() throws {
    let directory = try TemporaryDirectory()
    let trace = try GrowingTrace(path: directory.path("live.rewind"))
    try trace.append(note: "a")
    try trace.append()
    let session = try OpenSession(source: try TraceFileSource(path: trace.path))
    session.resize(width: 80, height: 16)
    try session.press("/note<enter>")
    try session.finishWork()
    XCTAssertEqual(session.searchHits?.total, 1)
    try trace.append(note: "b")
    try session.tick()
    XCTAssertNil(session.searchHits?.total, "the last bucket is counted again")
    try session.finishWork()
    XCTAssertEqual(session.searchHits?.total, 2)
    try session.press("n")
    XCTAssertEqual(session.model.cursor, 3)
  }

  func testASearchMatchesActionPathsThatAppearLater() throws {
    let directory = try TemporaryDirectory()
    let trace = try GrowingTrace(path: directory.path("live.rewind"))
    try trace.append(note: "a")
    let session = try OpenSession(source: try TraceFileSource(path: trace.path))
    session.resize(width: 80, height: 16)
    try session.press("/o<enter>")
    XCTAssertEqual(session.model.search?.actionPaths, ["noteAdded"])
    try trace.append()
    try trace.append(action: "closeTapped")
    try session.tick()
    XCTAssertEqual(session.model.search?.actionPaths, ["noteAdded", "closeTapped"])
    try session.finishWork()
    XCTAssertEqual(session.searchHits?.total, 2)
    try session.press("n")
    XCTAssertEqual(session.model.cursor, 3)
  }
}
