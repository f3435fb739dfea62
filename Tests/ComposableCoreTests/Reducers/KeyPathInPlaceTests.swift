import ComposableCore
import XCTest

/// `WritableKeyPath.modify(in:_:)` and `read(in:_:)`, which `Scope` and `forEach` use: through
/// the stored offset when the path has one, through the key path otherwise, the same values.
final class KeyPathInPlaceTests: XCTestCase {
  private struct Inner: Equatable {
    var name: String
    var count: Int
  }

  private final class Box {
    var inner = Inner(name: "boxed", count: 0)
  }

  private struct Outer {
    var flag = false
    var inner = Inner(name: "a", count: 1)
    var rows = [Inner(name: "r0", count: 0), Inner(name: "r1", count: 1)]
    var box = Box()
    var setterCalls = 0

    /// A computed path: its setter counts calls.
    var doubled: Int {
      get { inner.count * 2 }
      set {
        setterCalls += 1
        inner.count = newValue / 2
      }
    }
  }

  func testAStoredPathIsReachedThroughItsOffset() {
    XCTAssertNotNil(MemoryLayout<Outer>.offset(of: \Outer.inner.count))
    var outer = Outer()
    let result = (\Outer.inner).modify(in: &outer) { inner -> String in
      inner.count += 41
      inner.name += "b"
      return inner.name
    }
    XCTAssertEqual(result, "ab")
    XCTAssertEqual(outer.inner, Inner(name: "ab", count: 42))
    XCTAssertEqual((\Outer.inner.count).read(in: &outer) { $0 }, 42)
    XCTAssertEqual(outer.flag, false)
    XCTAssertEqual(outer.rows.map(\.name), ["r0", "r1"])
  }

  func testAComputedPathGoesThroughItsAccessors() {
    XCTAssertNil(MemoryLayout<Outer>.offset(of: \Outer.doubled))
    var outer = Outer()
    (\Outer.doubled).modify(in: &outer) { $0 = 10 }
    XCTAssertEqual(outer.setterCalls, 1)
    XCTAssertEqual(outer.inner.count, 5)
    XCTAssertEqual((\Outer.doubled).read(in: &outer) { $0 }, 10)
  }

  func testSubscriptAndClassPathsGoThroughTheKeyPath() {
    XCTAssertNil(MemoryLayout<Outer>.offset(of: \Outer.rows[1]))
    XCTAssertNil(MemoryLayout<Outer>.offset(of: \Outer.box.inner))
    var outer = Outer()
    (\Outer.rows[1].count).modify(in: &outer) { $0 = 7 }
    XCTAssertEqual(outer.rows.map(\.count), [0, 7])
    (\Outer.box.inner.name).modify(in: &outer) { $0 = "changed" }
    XCTAssertEqual(outer.box.inner.name, "changed")
    XCTAssertEqual((\Outer.rows[1].name).read(in: &outer) { $0 }, "r1")
  }
}
