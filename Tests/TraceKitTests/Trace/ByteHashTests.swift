import XCTest

@testable import TraceKit

/// `ByteHash.words` reads bytes eight at a time with the last word overlapping: every length
/// around a word's edge hashes each byte, and equal bytes hash equally.
final class ByteHashTests: XCTestCase {
  func testEveryByteOfEveryLengthChangesTheWordsHash() {
    var hashes = Set<UInt64>()
    var count = 0
    for length in 0...40 {
      let bytes = [UInt8](repeating: 0x61, count: length)
      let hash = bytes.withUnsafeBytes(ByteHash.words)
      XCTAssertEqual(Array(bytes).withUnsafeBytes(ByteHash.words), hash)
      hashes.insert(hash)
      count += 1
      for position in 0..<length {
        var changed = bytes
        changed[position] = 0x62
        hashes.insert(changed.withUnsafeBytes(ByteHash.words))
        count += 1
      }
    }
    XCTAssertEqual(hashes.count, count)
  }
}
