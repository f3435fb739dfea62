import TestSupport
import XCTest

@testable import TraceValues

/// The string writer against the escaping rules applied one byte at a time, on bytes that no
/// `String` holds (lone continuation bytes, 0xE2 cut short) as well as on text.
final class JSONWriterTests: XCTestCase {
  func testEveryByteInEveryPositionIsWrittenAsTheRulesSay() {
    let filler = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    for byte in 0...255 {
      for count in 1...20 {
        for position in 0..<count {
          var bytes = Array(filler[0..<count])
          bytes[position] = UInt8(byte)
          Self.assertWritten(bytes, "byte \(byte) at \(position) of \(count)")
        }
      }
    }
  }

  func testEveryByteInEveryLaneOfAWordIsFoundOrPassed() {
    for filler: UInt8 in [0x20, 0x41, 0x7E, 0x80, 0xC3, 0xE1, 0xE3, 0xFF] {
      for byte in 0...255 {
        for lane in 0..<8 {
          var bytes = [UInt8](repeating: filler, count: 8)
          bytes[lane] = UInt8(byte)
          let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
          XCTAssertEqual(
            JSONWriter.plainWord(word), bytes.allSatisfy { !Self.needsLook($0) },
            "byte \(byte) in lane \(lane) among \(filler)")
        }
      }
    }
  }

  /// Random bytes of every length up to 40 from an alphabet heavy in what needs a look,
  /// U+2028 and U+2029 included and cut at any point, with and without `$` first.
  func testRandomBytesAreWrittenAsTheRulesSay() {
    let pieces: [[UInt8]] = [
      [0x61], [0x5A], [0x20], [0x7E], [0x22], [0x5C], [0x24], [0x0A], [0x00], [0x1F], [0x7F],
      [0x80], [0xA8], [0xC3, 0xA9], [0xE2], [0xE2, 0x80], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9],
      [0xE2, 0x80, 0xA7], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0xA6, 0x86], [0xFF],
      Array("plain text".utf8),
    ]
    var random = SplitMix(seed: 2_027)
    for round in 0..<20_000 {
      var bytes: [UInt8] = []
      let length = Int(random.next() % 41)
      while bytes.count < length {
        bytes += pieces[Int(random.next() % UInt64(pieces.count))]
      }
      Self.assertWritten(bytes, "round \(round)")
    }
  }

  func testRandomTextIsWrittenAsTheRulesSay() {
    var random = SplitMix(seed: 27)
    for round in 0..<5_000 {
      var text = ""
      for _ in 0..<Int(random.next() % 30) {
        // Any scalar, weighted towards ASCII and the first planes.
        let limit: UInt64 = [0x80, 0x800, 0x3000, 0x11_0000][Int(random.next() % 4)]
        if let scalar = Unicode.Scalar(UInt32(random.next() % limit)) {
          text.unicodeScalars.append(scalar)
        }
      }
      for escapingDollar in [false, true] {
        var written: [UInt8] = []
        JSONWriter.writeString(text, escapingDollar: escapingDollar, into: &written)
        XCTAssertEqual(
          written, Self.expected(Array(text.utf8), escapingDollar: escapingDollar),
          "round \(round)")
      }
    }
  }

  /// Random trees written in turn into one buffer (emptied between them, and growing from its
  /// smallest size), and into an array: the same bytes.
  func testABufferHoldsTheBytesAnArrayGets() {
    var random = RandomTraceValue(seed: 2_027)
    var buffer = JSONBuffer(capacity: 0)
    for round in 0..<2_000 {
      let value = random.value()
      var array: [UInt8] = [0x5B]
      value.writeJSON(into: &array)
      if round % 3 != 0 { buffer.removeAll() }
      let before = Array(buffer.bytes)
      value.writeJSON(into: &buffer)
      XCTAssertEqual(Array(buffer.bytes), before + array.dropFirst(), "round \(round)")
    }
  }

  /// Random trees written straight into an array at every capacity from too small to more
  /// than enough: the bytes an array gets, with the room asked for after them, whether they
  /// fit or were copied out.
  func testAnArrayWrittenInPlaceHoldsTheBytesAnArrayGets() {
    var random = RandomTraceValue(seed: 2_029)
    for round in 0..<500 {
      let value = random.value()
      var expected: [UInt8] = []
      value.writeJSON(into: &expected)
      for capacity in [0, expected.count - 1, expected.count, expected.count + 7] {
        let written = JSONBuffer.array(capacity: capacity, room: 1) { value.writeJSON(into: &$0) }
        XCTAssertEqual(written, expected, "round \(round), capacity \(capacity)")
        XCTAssertGreaterThan(written.capacity, written.count, "round \(round): no room")
      }
    }
  }

  private static func assertWritten(
    _ bytes: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    for escapingDollar in [false, true] {
      var written: [UInt8] = [0x5B]
      bytes.withUnsafeBufferPointer {
        JSONWriter.writeQuoted($0, escapingDollar: escapingDollar, into: &written)
      }
      XCTAssertEqual(
        written, [0x5B] + expected(bytes, escapingDollar: escapingDollar),
        "\(message), escapingDollar: \(escapingDollar)", file: file, line: line)
    }
  }

  /// Bytes the writer may not copy as they are: control characters, quote, backslash, and
  /// 0xE2, which may start U+2028 or U+2029.
  private static func needsLook(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x5C || byte == 0xE2
  }

  /// The quoted string, one byte at a time.
  private static func expected(_ bytes: [UInt8], escapingDollar: Bool) -> [UInt8] {
    var out: [UInt8] = [0x22]
    if escapingDollar, bytes.first == 0x24 { out.append(0x24) }
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x22: out += Array(#"\""#.utf8)
      case 0x5C: out += Array(#"\\"#.utf8)
      case 0x0A: out += Array(#"\n"#.utf8)
      case 0x0D: out += Array(#"\r"#.utf8)
      case 0x09: out += Array(#"\t"#.utf8)
      case 0x08: out += Array(#"\b"#.utf8)
      case 0x0C: out += Array(#"\f"#.utf8)
      case 0xE2
      where index + 1 < bytes.count && bytes[index] == 0x80
        && (bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9):
        out += Array((bytes[index + 1] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
        index += 2
      case 0..<0x20, 0x7F:
        let hex = Array("0123456789abcdef".utf8)
        out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default:
        out.append(byte)
      }
    }
    out.append(0x22)
    return out
  }
}
