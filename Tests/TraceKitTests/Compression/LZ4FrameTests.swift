import Foundation
import TestSupport
import XCTest

@testable import TraceKit

final class LZ4FrameTests: XCTestCase {
  func testRoundTripOfRepetitiveText() throws {
    let text = String(repeating: "{\"step\":1,\"action\":\"increment\"}\n", count: 2_000)
    let frame = try LZ4Frame.compress(Array(text.utf8))
    XCTAssertLessThan(frame.count, text.utf8.count / 4)
    XCTAssertEqual(Array(frame.prefix(4)), [0x04, 0x22, 0x4D, 0x18])  // the frame magic
    XCTAssertEqual(try LZ4Frame.decompress(frame), Array(text.utf8))
  }

  func testEmptyContentRoundTrips() throws {
    let frame = try LZ4Frame.compress([])
    XCTAssertEqual(try LZ4Frame.decompress(frame), [])
  }

  func testFlippedContentByteFailsTheChecksum() throws {
    var random = SplitMix(seed: 7)
    let bytes = (0..<5_000).map { _ in UInt8(truncatingIfNeeded: random.next() % 7) }
    var frame = try LZ4Frame.compress(bytes)
    // The last 4 bytes are the content checksum: damage it directly.
    frame[frame.count - 1] ^= 0x01
    XCTAssertThrowsError(try LZ4Frame.decompress(frame)) { error in
      XCTAssertEqual(error as? LZ4FrameError, .checksumMismatch)
    }
  }

  func testTruncatedFrameIsReportedAsTruncated() throws {
    let frame = try LZ4Frame.compress(Array(repeating: 65, count: 100_000))
    for cut in [1, 5, frame.count / 2, frame.count - 1] {
      XCTAssertThrowsError(try LZ4Frame.decompress(Array(frame.prefix(cut)))) { error in
        XCTAssertEqual(error as? LZ4FrameError, .truncated, "cut at \(cut)")
      }
    }
    XCTAssertThrowsError(try LZ4Frame.decompress([])) { error in
      XCTAssertEqual(error as? LZ4FrameError, .truncated)
    }
  }

  func testDeclaredSizeAboveTheLimitIsRefusedBeforeAllocating() throws {
    let frame = try LZ4Frame.compress(Array(repeating: 1, count: 10_000))
    XCTAssertThrowsError(try LZ4Frame.decompress(frame, limit: 9_999)) { error in
      XCTAssertEqual(error as? LZ4FrameError, .tooLarge(size: 10_000, limit: 9_999))
      XCTAssertEqual(
        "\(error)", "LZ4 frame content of 10000 bytes exceeds the limit of 9999 bytes")
    }
  }

  func testBytesAfterTheFrameAreRefused() throws {
    let frame = try LZ4Frame.compress(Array("abc".utf8))
    XCTAssertThrowsError(try LZ4Frame.decompress(frame + [0, 0])) { error in
      XCTAssertEqual(error as? LZ4FrameError, .trailingBytes(count: 2))
    }
  }

  func testNotAFrameIsMalformed() throws {
    XCTAssertThrowsError(try LZ4Frame.decompress(Array("plain text, no magic".utf8))) {
      error in
      guard case .malformed = error as? LZ4FrameError else {
        return XCTFail("unexpected \(error)")
      }
    }
  }

  func testFrameOfTheLz4CommandIsReadAndOneWithoutContentSizeIsRefused() throws {
    let text = Array(String(repeating: "{\"step\":1}\n", count: 100).utf8)
    let directory = try TemporaryDirectory()
    let input = directory.path("in.jsonl")
    try Data(text).write(to: URL(fileURLWithPath: input))
    func lz4(_ arguments: [String]) throws -> [UInt8] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      // From a file (not a pipe) so the command knows the size it may declare.
      process.arguments = ["lz4"] + arguments + [input]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 0, "is the lz4 command installed?")
      return [UInt8](data)
    }
    XCTAssertEqual(try LZ4Frame.decompress(try lz4(["-c", "--content-size"])), text)
    XCTAssertThrowsError(try LZ4Frame.decompress(try lz4(["-c", "--no-content-size"]))) {
      XCTAssertEqual($0 as? LZ4FrameError, .missingContentSize)
    }
  }

  func testRandomDamageNeverTraps() throws {
    var random = SplitMix(seed: 42)
    let text = (0..<3_000).map { "{\"step\":\($0),\"v\":\($0 % 17)}\n" }.joined()
    let frame = try LZ4Frame.compress(Array(text.utf8))
    var failures = 0
    for _ in 0..<2_000 {
      var damaged = frame
      let index = Int(random.next() % UInt64(damaged.count))
      damaged[index] = UInt8(truncatingIfNeeded: random.next())
      do {
        let out = try LZ4Frame.decompress(damaged, limit: 1 << 20)
        XCTAssertEqual(out, Array(text.utf8), "a damaged frame decoded to other content")
      } catch {
        failures += 1
      }
    }
    XCTAssertGreaterThan(failures, 0)
  }
}

/// A small seeded generator so damage is reproducible.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
