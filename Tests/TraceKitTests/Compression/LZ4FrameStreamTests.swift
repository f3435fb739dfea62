import TestSupport
import XCTest

@testable import TraceKit

/// The step lines' frames: written by CLineLZ4's match finder, read by liblz4's
/// `LZ4F_decompress` (through `LZ4Frame.decompress`), which checks every block checksum and
/// the content checksum. Each frame is also walked block by block here, to hold the block
/// format's end rules.
final class LZ4FrameStreamTests: XCTestCase {
  /// liblz4's `LZ4F_compressBegin` writes these 7 bytes for the same preferences (64 KiB linked
  /// blocks, block and content checksums, no content size).
  static let header: [UInt8] = [0x04, 0x22, 0x4D, 0x18, 0x54, 0x40, 0xAE]

  func testHeaderIsLiblz4sForTheSameFlags() throws {
    let stream = try LZ4FrameStream()
    XCTAssertFalse(stream.isOpen)
    XCTAssertEqual(try stream.part([], ends: false), Self.header)
    XCTAssertTrue(stream.isOpen)
    XCTAssertEqual(try stream.end(), [0, 0, 0, 0, 0x05, 0x5D, 0xCC, 0x02])
    XCTAssertFalse(stream.isOpen)
    XCTAssertEqual(try stream.end(), [])
  }

  func testEmptyFrameIsHeaderEndMarkAndTheEmptyContentsChecksum() throws {
    let frame = try LZ4FrameStream().part([], ends: true)
    // XXH32 of no bytes is 0x02CC5D05.
    XCTAssertEqual(frame, Self.header + [0, 0, 0, 0, 0x05, 0x5D, 0xCC, 0x02])
    XCTAssertEqual(try read(frame, size: 0), [])
  }

  func testOneByteIsOneStoredBlock() throws {
    let frame = try LZ4FrameStream().part([0x61], ends: true)
    // Size 1 with the high bit (stored as it is), "a", then XXH32("a") = 0x550D7456 twice: the
    // block's checksum and the content's.
    XCTAssertEqual(
      frame,
      Self.header + [0x01, 0x00, 0x00, 0x80, 0x61, 0x56, 0x74, 0x0D, 0x55]
        + [0, 0, 0, 0, 0x56, 0x74, 0x0D, 0x55])
    XCTAssertEqual(try read(frame, size: 1), [0x61])
  }

  func testFiveToThirteenBytesAreStoredAsTheyAre() throws {
    // Below 13 bytes no match may start (the last match starts 12 bytes before the end); at 13
    // only the first byte may, and nothing lies before it.
    for count in 5...13 {
      let bytes = Array(repeating: UInt8(ascii: "x"), count: count)
      let frame = try LZ4FrameStream().part(bytes, ends: true)
      let blocks = try walk(frame)
      XCTAssertEqual(blocks.map(\.stored), [true], "\(count) bytes")
      XCTAssertEqual(blocks.map(\.contentCount), [count], "\(count) bytes")
      XCTAssertEqual(frame.count, 7 + 4 + count + 4 + 8, "\(count) bytes")
      XCTAssertEqual(try read(frame, size: count), bytes, "\(count) bytes")
    }
  }

  func testRepeatIsOneMatchEndingFiveBytesBeforeTheEnd() throws {
    let bytes = (0..<300).map { Array("abc".utf8)[$0 % 3] }
    let frame = try LZ4FrameStream().part(bytes, ends: true)
    // Token 0x3F: 3 literals "abc", then offset 3 and a match of 4 + 15 + 255 + 18 = 292
    // bytes; token 0x50: the last 5 bytes as literals.
    let block: [UInt8] = [
      0x3F, 0x61, 0x62, 0x63, 0x03, 0x00, 0xFF, 0x12, 0x50, 0x62, 0x63, 0x61, 0x62, 0x63,
    ]
    XCTAssertEqual(Array(frame[7..<11]), [14, 0, 0, 0])
    XCTAssertEqual(Array(frame[11..<25]), block)
    XCTAssertEqual(frame.count, 7 + 4 + 14 + 4 + 8)
    let walked = try walk(frame)
    XCTAssertEqual(walked.map(\.matches), [[Match(start: 3, length: 292, offset: 3)]])
    XCTAssertEqual(try read(frame, size: 300), bytes)
  }

  func testIncompressibleBytesAreStoredAsTheyAre() throws {
    var random = SplitMix(seed: 41)
    let bytes = (0..<4_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let frame = try LZ4FrameStream().part(bytes, ends: true)
    let blocks = try walk(frame)
    XCTAssertEqual(blocks.map(\.stored), [true])
    XCTAssertEqual(frame.count, 7 + 4 + 4_000 + 4 + 8)
    XCTAssertEqual(try read(frame, size: 4_000), bytes)
  }

  func testMoreThan64KiBIsSeveralLinkedBlocks() throws {
    let line = Array("{\"action\":{\"$case\":\"tick\"},\"changes\":[]}\n".utf8)
    var bytes: [UInt8] = []
    var n = 0
    while bytes.count < 200_000 {
      bytes += line + Array("{\"action\":{\"$case\":\"set\",\"_0\":\(n)}}\n".utf8)
      n += 1
    }
    let frame = try LZ4FrameStream().part(bytes, ends: true)
    let blocks = try walk(frame)
    XCTAssertEqual(blocks.map(\.contentCount), [65_536, 65_536, 65_536, bytes.count - 196_608])
    XCTAssertEqual(blocks.map(\.stored), [false, false, false, false])
    // Blocks after the first reach back into the one before (they are linked).
    for (index, block) in blocks.enumerated().dropFirst() {
      XCTAssertTrue(
        block.matches.contains { $0.offset > $0.start }, "block \(index) refers back")
    }
    XCTAssertEqual(try read(frame, size: bytes.count), bytes)
  }

  func testLaterPartsMatchEarlierParts() throws {
    let stream = try LZ4FrameStream()
    // 29 bytes with no 4 bytes twice: the first part has nothing to match.
    let line = Array("{\"action\":\"tick-tock\",\"n\":1}\n".utf8)
    let first = try stream.part(line, ends: false)
    let second = try stream.part(line, ends: false)
    let third = try stream.part(line + line, ends: true)
    // The first part is stored as it is; the second is one match of the first line (all but
    // its last 5 bytes: token, offset 29, a length byte) and a token with the 5 literals; the
    // third's two lines are the same, one match of 53 bytes; then the end mark and checksum.
    XCTAssertEqual(first.count, 7 + 4 + 29 + 4)
    XCTAssertEqual(second.count, 4 + (1 + 2 + 1) + (1 + 5) + 4)
    XCTAssertEqual(third.count, 4 + (1 + 2 + 1) + (1 + 5) + 4 + 8)
    let frame = first + second + third
    let blocks = try walk(frame)
    XCTAssertEqual(blocks.map(\.stored), [true, false, false])
    XCTAssertEqual(
      blocks.map(\.matches),
      [[], [Match(start: 0, length: 24, offset: 29)], [Match(start: 0, length: 53, offset: 29)]])
    XCTAssertEqual(try read(frame, size: 4 * line.count), line + line + line + line)
  }

  func testUnendedFrameIsReadBlockByBlock() throws {
    let stream = try LZ4FrameStream()
    let lines = Array("{\"action\":\"a\"}\n{\"action\":\"b\"}\n{\"action\":\"a\"}\n".utf8)
    let frame = try stream.part(lines, ends: false) + stream.part(lines, ends: false)
    XCTAssertTrue(stream.isOpen)
    let result = try frame.withUnsafeBytes { buffer in
      try LZ4Frame.decompress(buffer, size: 2 * lines.count, allowsMissingEnd: true)
    }
    XCTAssertEqual(result.bytes, lines + lines)
    XCTAssertFalse(result.isEnded)
  }

  func testDamagedBlockFailsItsChecksum() throws {
    let lines = String(repeating: "{\"action\":{\"$case\":\"plus\"}}\n", count: 50)
    var frame = try LZ4FrameStream().part(Array(lines.utf8), ends: true)
    // The block's first literal byte, inside the checksummed block data.
    frame[12] ^= 0x01
    XCTAssertThrowsError(try read(frame, size: lines.utf8.count)) { error in
      XCTAssertEqual(error as? LZ4FrameError, .checksumMismatch)
    }
  }

  func testSeededRandomLinesRoundTripInRandomParts() throws {
    var random = SplitMix(seed: 15)
    let actions = ["plus", "minus", "reset", "load", "loaded", "toggle", "rename"]
    var compressed = 0
    var raw = 0
    var highCompression = 0
    for _ in 0..<24 {
      let stream = try LZ4FrameStream()
      var content: [UInt8] = []
      var frame: [UInt8] = []
      let parts = 1 + Int(random.next() % 40)
      for index in 0..<parts {
        var part: [UInt8] = []
        for _ in 0..<Int(random.next() % 120) {
          let action = actions[Int(random.next() % UInt64(actions.count))]
          let value = Int(random.next() % 50) - 25
          var line = "{\"action\":{\"$case\":\"\(action)\"},\"changes\":[{\"op\":\"set\","
          line += "\"path\":\"count\",\"value\":\(value)}]"
          if random.next() % 5 == 0 {
            let id = String(random.next(), radix: 16, uppercase: true)
            line += ",\"deps\":[{\"key\":\"uuid\",\"value\":\"\(id)\"}]"
          }
          part += Array((line + "}\n").utf8)
        }
        frame += try stream.part(part, ends: index == parts - 1)
        content += part
      }
      for block in try walk(frame) where !block.stored {
        XCTAssertGreaterThan(block.contentCount, 0)
      }
      XCTAssertEqual(try read(frame, size: content.count), content)
      compressed += frame.count
      raw += content.count
      highCompression += try LZ4Frame.compress(content, level: 3).count
    }
    XCTAssertEqual(raw, 2_494_897)
    XCTAssertEqual(compressed, 249_362)
    // liblz4's high-compression level 3 stores these frames, written at once, in 235,121 bytes
    // (liblz4 1.9.4): these lines, with random values and ids, take about 6 % more.
    XCTAssertLessThan(compressed * 100, highCompression * 107)
  }

  // MARK: Reading

  private func read(_ frame: [UInt8], size: Int) throws -> [UInt8] {
    try frame.withUnsafeBytes { buffer in
      try LZ4Frame.decompress(buffer, size: size, allowsMissingEnd: false).bytes
    }
  }

  struct Match: Equatable {
    /// Where the match starts in its block's content, and how far back it copies from.
    var start: Int
    var length: Int
    var offset: Int
  }

  struct Block {
    var stored: Bool
    var contentCount: Int
    var matches: [Match]
  }

  /// The frame's blocks after its header, each checked against the block format's end rules:
  /// a block's last sequence is literals only, its last 5 bytes are literals, no match starts
  /// within its last 12 bytes, and no offset is 0 or reaches before the frame's start.
  private func walk(_ frame: [UInt8]) throws -> [Block] {
    XCTAssertEqual(Array(frame.prefix(7)), Self.header)
    var blocks: [Block] = []
    var at = 7
    var frameContent = 0
    func byte() throws -> Int {
      guard at < frame.count else { throw LZ4FrameError.truncated }
      defer { at += 1 }
      return Int(frame[at])
    }
    func word() throws -> Int {
      var value = 0
      for shift in [0, 8, 16, 24] { value |= try byte() << shift }
      return value
    }
    while true {
      let size = try word()
      if size == 0 { break }
      let count = size & 0x7FFF_FFFF
      if size & 0x8000_0000 != 0 {
        blocks.append(Block(stored: true, contentCount: count, matches: []))
        at += count + 4
        frameContent += count
        continue
      }
      let end = at + count
      var content = 0
      var matches: [Match] = []
      var lastLiterals = 0
      while true {
        let token = try byte()
        var literals = token >> 4
        if literals == 15 {
          while true {
            let extra = try byte()
            literals += extra
            if extra != 255 { break }
          }
        }
        at += literals
        content += literals
        lastLiterals = literals
        if at >= end { break }
        let low = try byte()
        let offset = low | (try byte()) << 8
        var length = (token & 15) + 4
        if token & 15 == 15 {
          while true {
            let extra = try byte()
            length += extra
            if extra != 255 { break }
          }
        }
        XCTAssertGreaterThan(offset, 0)
        XCTAssertLessThanOrEqual(offset, frameContent + content)
        matches.append(Match(start: content, length: length, offset: offset))
        content += length
      }
      XCTAssertEqual(at, end, "the last sequence ends at the block's end")
      XCTAssertGreaterThanOrEqual(lastLiterals, min(5, content), "the last 5 bytes are literals")
      if let last = matches.last {
        XCTAssertLessThanOrEqual(last.start, content - 12, "the last match starts 12 before")
        XCTAssertLessThanOrEqual(last.start + last.length, content - 5)
      }
      blocks.append(Block(stored: false, contentCount: content, matches: matches))
      at = end + 4
      frameContent += content
    }
    at += 4
    XCTAssertEqual(at, frame.count, "the content checksum ends the frame")
    return blocks
  }
}
