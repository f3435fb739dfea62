import Foundation
import TestSupport
import XCTest

@testable import InspectorKit

/// Damaged copies of a real trace, run through every command in process: each run either
/// succeeds or ends with exactly one `inspector: …` line without SQLite's wording and status 1
/// or 2 — never a trap. Byte-level damage; `RowCorruptionEndToEndTests` edits rows.
final class CorruptedTraceTests: EndToEndTestCase {
  func testEveryCommandSurvivesDamagedTraces() throws {
    let original = try Data(contentsOf: sample)
    var generator = SplitMix(seed: 0x5EED)
    let commands: [[String]] = [
      ["info"], ["log"], ["show", "7"], ["diff", "9"], ["diff", "2", "11", "--path", "todos"],
      ["tree"], ["effects", "--timeline"], ["replay"], ["export"], ["log", "--json"],
    ]
    var failures = 0
    for variant in 0..<120 {
      var bytes = [UInt8](original)
      // Damage a few bytes anywhere (header, index, payload pages), or cut the file short.
      if variant % 10 == 9 {
        bytes.removeLast(Int(generator.next() % UInt64(bytes.count / 2)))
      } else {
        for _ in 0..<(1 + variant % 4) {
          let offset = Int(generator.next() % UInt64(bytes.count))
          bytes[offset] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
        }
      }
      let path = directory.url.appendingPathComponent("damaged-\(variant).rewind").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      for command in commands {
        let arguments = [command[0], path] + command.dropFirst()
        var out = ""
        var err = ""
        let inspector = Inspector(
          terminal: FixedTerminal(width: 80), interruption: .never,
          open: { path throws(InspectorError) in try TraceFileSource(path: path) })
        let status = inspector.run(arguments, out: &out, err: &err)
        if status != 0 {
          failures += 1
          XCTAssertTrue([1, 2].contains(status), "\(arguments): status \(status)")
          XCTAssertTrue(err.hasPrefix("inspector: "), "\(arguments): \(err)")
          XCTAssertEqual(err.filter { $0 == "\n" }.count, 1, "\(arguments): \(err)")
          for jargon in ["SQLite error", "while executing", "disk image"] {
            XCTAssertFalse(err.contains(jargon), "\(arguments): \(err)")
          }
        } else {
          XCTAssertEqual(err, "", "\(arguments)")
        }
        XCTAssertFalse(out.contains("\u{1B}"), "\(arguments)")
      }
      try FileManager.default.removeItem(atPath: path)
    }
    // The damage must actually be noticed somewhere, or this test proves nothing.
    XCTAssertGreaterThan(failures, 100)
  }
}
