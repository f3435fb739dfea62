import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// Seeded damage to a real trace file: every read either succeeds (with its hash verified by
/// the reader) or throws `TraceError`. Any other error fails; a trap would crash the suite.
final class TraceCorruptionTests: XCTestCase {
  enum Region: String, CaseIterable { case header, firstPage, anywhere, truncation }

  func testDamagedBytesNeverTrapAndFailOnlyWithTraceErrors() throws {
    let directory = try TemporaryDirectory()
    let original = directory.path("original.rewind")
    try writeSyntheticTrace(at: original, steps: 160, keyframeInterval: 16, chunkStepLimit: 20)
    let pristine = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
    let pageSize = Int(pristine[16]) << 8 | Int(pristine[17])
    XCTAssertGreaterThanOrEqual(pristine.count / pageSize, 8, "too few pages to damage")

    var random = SplitMix(seed: 0xC0FFEE)
    var outcomes: [String: Int] = [:]
    var damagedPages = Set<Int>()
    let variants = 1_200
    for variant in 0..<variants {
      var bytes = pristine
      let region = Region.allCases[variant % Region.allCases.count]
      switch region {
      case .header:
        damage(&bytes, at: Int(random.next() % 100), &random)
      case .firstPage:
        damage(&bytes, at: Int(random.next() % UInt64(pageSize)), &random)
      case .anywhere:
        let offset = Int(random.next() % UInt64(bytes.count))
        damagedPages.insert(offset / pageSize)
        damage(&bytes, at: offset, &random)
      case .truncation:
        bytes.removeLast(Int(1 + random.next() % UInt64(bytes.count - 1)))
      }
      let path = directory.path("v\(variant).rewind")
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let outcome = readEverything(path)
      outcomes[outcome, default: 0] += 1
      if outcome.hasPrefix("unexpected") {
        XCTFail("variant \(variant) (\(region)): \(outcome)")
      }
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: path + "-wal")
      try? FileManager.default.removeItem(atPath: path + "-shm")
    }
    // The damage reached index and payload pages, not only the header.
    XCTAssertGreaterThanOrEqual(damagedPages.count, pristine.count / pageSize - 1)
    XCTAssertGreaterThan(outcomes["ok", default: 0], 0)
    XCTAssertGreaterThan(outcomes.filter { $0.key != "ok" }.count, 3, "\(outcomes)")
  }

  /// Flips a bit, writes a random byte or zeroes a run of bytes.
  func damage(_ bytes: inout [UInt8], at offset: Int, _ random: inout SplitMix) {
    switch random.next() % 3 {
    case 0:
      bytes[offset] ^= UInt8(1) << UInt8(random.next() % 8)
    case 1:
      bytes[offset] = UInt8(truncatingIfNeeded: random.next())
    default:
      let end = min(bytes.count, offset + Int(1 + random.next() % 32))
      for index in offset..<end { bytes[index] = 0 }
    }
  }

  /// Reads every step and every table; returns "ok" or the kind of the first TraceError.
  func readEverything(_ path: String) -> String {
    do {
      let reader = try TraceReader(path: path)
      var failure: String?
      func attempt(_ body: () throws -> Void) throws {
        do {
          try body()
        } catch let error as TraceError {
          failure = failure ?? kindName(error)
          // A step whose read failed does not stop the others.
        }
      }
      try attempt { _ = try reader.info() }
      try attempt { _ = try reader.effects() }
      try attempt { _ = try reader.tree() }
      try attempt { _ = try reader.gaps() }
      try attempt { _ = try reader.rows(from: 0, to: .max) }
      let last = (try? reader.lastStep()) ?? 160
      for step in 0...max(0, min(last, 400)) {
        try attempt { _ = try reader.state(at: step) }
        try attempt { _ = try reader.action(at: step) }
        try attempt { _ = try reader.changes(at: step) }
        try attempt { _ = try reader.dependencies(at: step) }
      }
      return failure ?? "ok"
    } catch let error as TraceError {
      return kindName(error)
    } catch {
      return "unexpected \(type(of: error)): \(error)"
    }
  }

  func kindName(_ error: TraceError) -> String {
    let text = "\(error.kind)"
    return String(text.prefix { $0 != "(" })
  }
}
