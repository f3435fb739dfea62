import ComposableCore
import XCTest

/// `KeyPathOffsets`: the offset `MemoryLayout` gives, kept per key path object, for stored,
/// computed and class paths alike, and right for more key paths than it has slots.
final class KeyPathOffsetsTests: XCTestCase {
  private struct Inner {
    var name = ""
    var count = 0
  }

  private final class Box {
    var inner = Inner()
  }

  private struct Outer {
    var flag = false
    var inner = Inner()
    var box = Box()
    var doubled: Int {
      get { inner.count * 2 }
      set { inner.count = newValue / 2 }
    }
  }

  func testAKeptOffsetIsMemoryLayoutsOffset() {
    let offsets = KeyPathOffsets()
    let path = \Outer.inner.count
    let expected = MemoryLayout<Outer>.offset(of: path)
    XCTAssertNotNil(expected)
    XCTAssertEqual(offsets.offset(of: path), expected)
    // The second look-up reads the kept entry.
    XCTAssertEqual(offsets.offset(of: path), expected)
  }

  func testPathsWithoutAnInlineOffsetKeepNil() {
    let offsets = KeyPathOffsets()
    let computed = \Outer.doubled
    let throughClass = \Outer.box.inner
    XCTAssertNil(offsets.offset(of: computed))
    XCTAssertNil(offsets.offset(of: computed))
    XCTAssertNil(offsets.offset(of: throughClass))
    XCTAssertNil(offsets.offset(of: throughClass))
  }

  func testMoreKeyPathsThanSlotsEachGetTheirOwnOffset() {
    let offsets = KeyPathOffsets()
    // Key paths made at run time (appended), each a new object: more than the 64 slots, so
    // some share a slot with one kept before them and are looked up without it.
    let inner: WritableKeyPath<Outer, Inner> = \.inner
    let count: WritableKeyPath<Inner, Int> = \.count
    let identity: WritableKeyPath<Outer, Outer> = \.self
    let doubled: WritableKeyPath<Outer, Int> = \.doubled
    let paths: [WritableKeyPath<Outer, Int>] = (0..<200).map { index in
      index.isMultiple(of: 2) ? inner.appending(path: count) : identity.appending(path: doubled)
    }
    for _ in 0..<2 {
      for (index, path) in paths.enumerated() {
        XCTAssertEqual(
          offsets.offset(of: path),
          index.isMultiple(of: 2) ? MemoryLayout<Outer>.offset(of: \Outer.inner.count) : nil,
          "path \(index)")
      }
    }
  }
}
