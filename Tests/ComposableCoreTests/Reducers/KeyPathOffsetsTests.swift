import ComposableCore
import Dispatch
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

  // Typed as writable, so that appending them makes writable key paths made at run time.
  private static var inner: WritableKeyPath<Outer, Inner> { \.inner }
  private static var count: WritableKeyPath<Inner, Int> { \.count }
  private static var identity: WritableKeyPath<Outer, Outer> { \.self }
  private static var doubled: WritableKeyPath<Outer, Int> { \.doubled }

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
    let paths: [WritableKeyPath<Outer, Int>] = (0..<200).map { index in
      index.isMultiple(of: 2)
        ? Self.inner.appending(path: Self.count) : Self.identity.appending(path: Self.doubled)
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

  /// Threads looking key paths up at once, while slots are being filled and tables replaced,
  /// each get every path's own offset.
  func testLookUpsOnManyThreadsAtOnceGetEachPathsOffset() {
    let offsets = KeyPathOffsets()
    // Key path objects are immutable; their types are not declared `Sendable`.
    nonisolated(unsafe) let counts = (0..<40).map { _ in Self.inner.appending(path: Self.count) }
    nonisolated(unsafe) let names = (0..<40).map { _ in Self.inner.appending(path: \Inner.name) }
    nonisolated(unsafe) let flags = (0..<40).map { _ in
      Self.identity.appending(path: \Outer.flag as WritableKeyPath<Outer, Bool>)
    }
    let expected = (
      count: MemoryLayout<Outer>.offset(of: \Outer.inner.count),
      name: MemoryLayout<Outer>.offset(of: \Outer.inner.name),
      flag: MemoryLayout<Outer>.offset(of: \Outer.flag)
    )
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<3 {
        for index in 0..<40 {
          let at = (index + thread * 7 + round) % 40
          XCTAssertEqual(offsets.offset(of: counts[at]), expected.count)
          XCTAssertEqual(offsets.offset(of: names[at]), expected.name)
          XCTAssertEqual(offsets.offset(of: flags[at]), expected.flag)
        }
      }
    }
  }
}
