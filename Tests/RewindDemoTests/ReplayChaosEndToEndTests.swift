import Foundation
import TestSupport
import TraceKit
import XCTest

/// `rewind-demo replay … --chaos N`: the search that forgets `cancelInFlight` records a trace
/// that replays cleanly, and chaos replay finds the order in which stale results win.
final class ReplayChaosEndToEndTests: XCTestCase {
  func testChaosFindsTheStaleSearchResultsFromItsSeed() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("search.rewind")
    let record = try DemoProcess.run(
      ["record", "search-buggy", "--out", path, "--steps", "12", "--seed", "1"])
    XCTAssertEqual(record.status, 0, record.stderr)
    // The recording looks right: it replays step for step against its own reducer.
    let replay = try DemoProcess.run(["replay", "search-buggy", path])
    XCTAssertEqual(replay.status, 0, replay.stdout + replay.stderr)

    let chaos = try DemoProcess.run(["replay", "search-buggy", path, "--chaos", "100"])
    XCTAssertEqual(chaos.status, 1, chaos.stderr)
    XCTAssertEqual(chaos.stderr, "")
    let lines = chaos.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertTrue(
      lines[0].hasPrefix("Chaos replay: 100 schedules, "), String(lines[0]))
    XCTAssertEqual(
      lines[1],
      "seed 0x0000000000000001 (run 0): 1 delivery moved; the state first differs after step 9")
    XCTAssertTrue(
      chaos.stdout.contains(
        "\n  -   resultsQuery: \"spar\",\n  +   resultsQuery: \"tabl\",\n"),
      chaos.stdout)
    XCTAssertTrue(
      chaos.stdout.hasSuffix("  reproduce: chaos(seed: 0x0000000000000001, runs: 1)\n"))

    // Its seed finds it again alone.
    let again = try DemoProcess.run(
      ["replay", "search-buggy", path, "--chaos", "1", "--seed", "1"])
    XCTAssertEqual(again.status, 1)
    XCTAssertTrue(again.stdout.hasPrefix("Chaos replay: 1 schedule, 1 ends differently"))
  }

  func testTheFixReplaysTheBuggyTraceDifferentlyAndNoOrderEndsDifferently() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("search.rewind")
    XCTAssertEqual(
      try DemoProcess.run(
        ["record", "search-buggy", "--out", path, "--steps", "12", "--seed", "1"]
      ).status, 0)
    let replay = try DemoProcess.run(["replay", "search", path])
    XCTAssertEqual(replay.status, 1)
    XCTAssertEqual(
      replay.stdout,
      """
      Step 2 (queryChanged) diverged from the trace (1 step matched before it):
        the reducer cancelled `search` (run, step 1, SearchFeature/Search.swift:73) in flight \
      (cancelInFlight: true); the trace recorded no cancellation of it here

      """)
    let chaos = try DemoProcess.run(["replay", "search", path, "--chaos", "100"])
    XCTAssertEqual(chaos.status, 0)
    XCTAssertEqual(
      chaos.stdout,
      "Chaos replay: 100 schedules of 12 deliveries, every one ends as the recording did.\n")
  }

  func testSeedWithoutChaosIsAUsageError() throws {
    let result = try DemoProcess.run(["replay", "search", "t.rewind", "--seed", "3"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stderr,
      "rewind-demo: replay: --seed chooses the schedules of --chaos, which is missing\n")
  }
}
