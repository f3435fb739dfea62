import TraceValues
import XCTest

/// Damaged input must be refused with an error, never trap: traces are read after crashes and
/// from disks that flip bits.
final class CorruptInputTests: XCTestCase {
  func testDamagedJSONEitherParsesOrThrows() throws {
    var random = RandomTraceValue(seed: 0xBAD)
    var refused = 0
    for _ in 0..<3_000 {
      var bytes = Array(random.value(depth: 4).jsonString.utf8)
      for _ in 0..<random.int(1..<4) {
        let position = random.int(0..<(bytes.count + 1))
        switch random.int(0..<3) {
        case 0 where position < bytes.count: bytes[position] ^= UInt8(1 << random.int(0..<8))
        case 1 where position < bytes.count: bytes.remove(at: position)
        default: bytes.insert(UInt8(random.int(0..<256)), at: position)
        }
      }
      do {
        let value = try TraceValue(json: bytes)
        XCTAssertEqual(try TraceValue(json: value.jsonString), value)
      } catch {
        refused += 1
      }
    }
    XCTAssertGreaterThan(refused, 1_000)
  }

  func testDamagedPathsEitherParseOrThrow() {
    var random = RandomTraceValue(seed: 0xBAD2)
    let alphabet = Array(#"ab.[]id: "\0129-{}$é"#)
    for _ in 0..<5_000 {
      let text = String(
        (0..<random.int(0..<12)).map { _ in alphabet[random.int(0..<alphabet.count)] })
      if let path = try? TracePath(parsing: text) {
        XCTAssertEqual(try TracePath(parsing: path.description), path, text)
      }
    }
  }

  func testChangesAppliedToTheWrongValueEitherApplyOrThrow() {
    var random = RandomTraceValue(seed: 0xBAD3)
    for _ in 0..<3_000 {
      let old = random.value(depth: 4)
      let changes = TraceDiff.changes(from: old, to: random.mutate(old, depth: 4))
      var unrelated = random.value(depth: 4)
      do {
        try TraceDiff.apply(changes, to: &unrelated)
      } catch {
        XCTAssertFalse(error.description.isEmpty)
      }
    }
  }
}
