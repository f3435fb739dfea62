import ComposableCore
import XCTest

/// The identity the store's cancellation table relies on: ids are equal when their types and
/// values are, and an id's stored hash agrees with that equality, however it was built.
final class CancelIDIdentityTests: XCTestCase {
  private enum CancelID: Hashable, Sendable {
    case search
    case row(Int)
  }

  private struct Named: Hashable, Sendable {
    var name: String
  }

  func testIDsOfTheSameTypeCompareByValue() {
    XCTAssertEqual(AnyHashableSendable(CancelID.row(3)), AnyHashableSendable(CancelID.row(3)))
    XCTAssertNotEqual(AnyHashableSendable(CancelID.row(3)), AnyHashableSendable(CancelID.row(4)))
    XCTAssertEqual(AnyHashableSendable(Named(name: "a")), AnyHashableSendable(Named(name: "a")))
    XCTAssertNotEqual(AnyHashableSendable(Named(name: "a")), AnyHashableSendable(Named(name: "b")))
  }

  func testEqualPayloadsOfDifferentTypesAreDifferentIDs() {
    let ids: Set<AnyHashableSendable> = [
      AnyHashableSendable(1), AnyHashableSendable(Int64(1)), AnyHashableSendable("1"),
      AnyHashableSendable(1),
    ]
    XCTAssertEqual(ids.count, 3)
    XCTAssertNotEqual(AnyHashableSendable(1), AnyHashableSendable(Int64(1)))
  }

  func testAWrappedIDIsNotWrappedTwice() {
    let once = AnyHashableSendable(CancelID.search)
    XCTAssertEqual(AnyHashableSendable(once), once)
    XCTAssertEqual(AnyHashableSendable(once).hashValue, once.hashValue)
  }

  private struct Grid: Hashable, Sendable {
    var rows: Int
    var columns: Int
  }

  /// A step is its kind, key path and element id; its label only names it. The same step
  /// built with and without a label is equal and hashes alike; each kind, key path and
  /// element id makes another step.
  func testNavigationStepsAreTheirKindKeyPathAndElementNotTheirLabel() {
    var steps: Set<NavigationID> = []
    for kind in [NavigationID.Kind.ifLet, .forEach, .presentation, .stack] {
      let labelled = NavigationID(
        kind: kind, keyPath: \Grid.rows, elementID: AnyHashableSendable(7),
        label: ReducerLabel(keyPath: \Grid.rows, caseName: "cells"))
      let plain = NavigationID(kind: kind, keyPath: \Grid.rows, elementID: AnyHashableSendable(7))
      XCTAssertEqual(labelled, plain)
      XCTAssertEqual(labelled.hashValue, plain.hashValue)
      XCTAssertEqual(labelled.description, "\(kind.rawValue)(cells)#7")
      XCTAssertEqual(plain.description, "\(kind.rawValue)(rows)#7")
      steps.insert(labelled)
      steps.insert(plain)
    }
    XCTAssertEqual(steps.count, 4)
    let rows = NavigationID(
      kind: .ifLet, keyPath: \Grid.rows, elementID: nil, label: ReducerLabel(keyPath: \Grid.rows))
    XCTAssertEqual(rows, NavigationID(kind: .ifLet, keyPath: \Grid.rows))
    XCTAssertNotEqual(rows, NavigationID(kind: .ifLet, keyPath: \Grid.columns))
    XCTAssertNotEqual(
      rows, NavigationID(kind: .ifLet, keyPath: \Grid.rows, elementID: AnyHashableSendable(1)))
    XCTAssertNotEqual(
      NavigationID(kind: .ifLet, keyPath: \Grid.rows, elementID: AnyHashableSendable(1)), rows)
    XCTAssertEqual(
      NavigationID(kind: .ifLet, keyPath: \Grid.rows, elementID: AnyHashableSendable(1)),
      NavigationID(kind: .ifLet, keyPath: \Grid.rows, elementID: AnyHashableSendable(1)))
    XCTAssertEqual(rows.description, "ifLet(rows)")
  }

  func testCancelIDsBuiltApartFindEachOther() {
    let row = NavigationID(
      kind: .forEach, keyPath: \Named.name, elementID: AnyHashableSendable(7))
    let inRow = NavigationIDPath().appending(row)
    let first = EffectCancelID(id: AnyHashableSendable(CancelID.search), navigationIDPath: inRow)
    let second = EffectCancelID(
      id: AnyHashableSendable(CancelID.search),
      navigationIDPath: NavigationIDPath().appending(
        NavigationID(kind: .forEach, keyPath: \Named.name, elementID: AnyHashableSendable(7))))
    XCTAssertEqual(first, second)
    XCTAssertEqual(first.hashValue, second.hashValue)

    let atRoot = EffectCancelID(
      id: AnyHashableSendable(CancelID.search), navigationIDPath: NavigationIDPath())
    XCTAssertNotEqual(first, atRoot)
    let otherRow = EffectCancelID(
      id: AnyHashableSendable(CancelID.search),
      navigationIDPath: NavigationIDPath().appending(
        NavigationID(kind: .forEach, keyPath: \Named.name, elementID: AnyHashableSendable(8))))
    XCTAssertNotEqual(first, otherRow)

    let table = [first: "row 7", atRoot: "root", otherRow: "row 8"]
    XCTAssertEqual(table[second], "row 7")
    XCTAssertEqual(table.count, 3)
  }

  /// A table buckets an id by its kept hash and the table's seed: ids built apart are found
  /// in tables of every size, and each table and set (their seeds differ) holds each id once.
  func testATableOfManyIDsFindsEachOneBuiltApartAndHoldsItOnce() {
    func id(_ row: Int, _ name: String?) -> EffectCancelID {
      let path =
        name.map {
          NavigationIDPath().appending(
            NavigationID(kind: .forEach, keyPath: \Named.name, elementID: AnyHashableSendable($0)))
        } ?? NavigationIDPath()
      return EffectCancelID(id: AnyHashableSendable(CancelID.row(row)), navigationIDPath: path)
    }
    var table: [EffectCancelID: Int] = [:]
    for row in 0..<300 {
      table[id(row, nil)] = row
      table[id(row, "a")] = 1_000 + row
      table[id(row, "b")] = 2_000 + row
    }
    XCTAssertEqual(table.count, 900)
    XCTAssertEqual(
      (0..<300).map { table[id($0, nil)]! + table[id($0, "a")]! + table[id($0, "b")]! },
      (0..<300).map { 3_000 + 3 * $0 })
    for row in stride(from: 0, to: 300, by: 2) { table[id(row, "a")] = nil }
    XCTAssertEqual(table.count, 750)
    XCTAssertNil(table[id(10, "a")])
    XCTAssertEqual(table[id(11, "a")], 1_011)
    let copies = Set(table.keys).union((0..<300).map { id($0, nil) })
    XCTAssertEqual(copies.count, 750)
  }

  private struct Pair: Hashable, Sendable {
    var left: String
    var right: String
  }

  /// A navigation step hashes its key path's type, not its components: steps through two
  /// properties of the same type hash alike and stay apart by equality; steps through key
  /// paths of different types, or of another kind or element, are different ids.
  func testStepsThroughKeyPathsOfOneTypeShareAHashAndStayApart() {
    func step(_ keyPath: WritableKeyPath<Pair, String> & Sendable, _ element: Int? = nil,
      kind: NavigationID.Kind = .forEach) -> NavigationID
    {
      NavigationID(kind: kind, keyPath: keyPath, elementID: element.map(AnyHashableSendable.init))
    }
    XCTAssertEqual(step(\.left).hashValue, step(\.right).hashValue)
    XCTAssertNotEqual(step(\.left), step(\.right))
    XCTAssertEqual(step(\.left), step(\.left))
    XCTAssertNotEqual(step(\.left, 1), step(\.left, 2))
    XCTAssertNotEqual(step(\.left), step(\.left, kind: .ifLet))
    let readOnly = NavigationID(kind: .forEach, keyPath: \Pair.left as KeyPath<Pair, String> & Sendable)
    XCTAssertEqual(readOnly, step(\.left), "a key path keeps its class when upcast")
    let otherType = NavigationID(kind: .forEach, keyPath: \Named.name)
    XCTAssertNotEqual(otherType, step(\.left))

    var table: [EffectCancelID: String] = [:]
    for (name, keyPath) in [("left", \Pair.left), ("right", \Pair.right)] {
      for element in 0..<3 {
        let path = NavigationIDPath().appending(step(keyPath, element))
        table[EffectCancelID(id: AnyHashableSendable(CancelID.search), navigationIDPath: path)] =
          "\(name) \(element)"
      }
    }
    XCTAssertEqual(table.count, 6)
    let found = EffectCancelID(
      id: AnyHashableSendable(CancelID.search),
      navigationIDPath: NavigationIDPath().appending(step(\.right, 2)))
    XCTAssertEqual(table[found], "right 2")
  }

  /// A navigation step as the cancellation id itself (what presentation and `forEach` wrap
  /// their child's effects in) is hashed by the step's kept parts: the same step built apart
  /// makes an equal id hashing alike, under the same path; another element, kind or key path
  /// makes another id; and a table finds each one.
  func testStepIDsBuiltApartHashAlikeAndStayApartFromOtherSteps() {
    func step(_ element: Int?, kind: NavigationID.Kind = .forEach) -> NavigationID {
      NavigationID(
        kind: kind, keyPath: \Pair.left, elementID: element.map(AnyHashableSendable.init))
    }
    let parent = NavigationIDPath().appending(
      NavigationID(kind: .presentation, keyPath: \Pair.right))
    func cancelID(_ step: NavigationID, under path: NavigationIDPath = NavigationIDPath())
      -> EffectCancelID
    {
      EffectCancelID(id: AnyHashableSendable(step), navigationIDPath: path)
    }
    XCTAssertEqual(cancelID(step(3)), cancelID(step(3)))
    XCTAssertEqual(cancelID(step(3)).hashValue, cancelID(step(3)).hashValue)
    XCTAssertEqual(cancelID(step(nil), under: parent), cancelID(step(nil), under: parent))
    XCTAssertEqual(
      cancelID(step(nil), under: parent).hashValue, cancelID(step(nil), under: parent).hashValue)
    XCTAssertNotEqual(cancelID(step(3)), cancelID(step(4)))
    XCTAssertNotEqual(cancelID(step(3)).hashValue, cancelID(step(4)).hashValue)
    XCTAssertNotEqual(cancelID(step(nil)), cancelID(step(nil, kind: .presentation)))
    XCTAssertNotEqual(
      cancelID(step(nil)),
      cancelID(NavigationID(kind: .forEach, keyPath: \Pair.right, elementID: nil)))
    XCTAssertNotEqual(cancelID(step(3)), cancelID(step(3), under: parent))
    XCTAssertNotEqual(
      cancelID(step(3)), EffectCancelID(id: AnyHashableSendable(3), navigationIDPath: .init()))

    var table: [EffectCancelID: Int] = [:]
    for element in 0..<100 {
      table[cancelID(step(element))] = element
      table[cancelID(step(element), under: parent)] = 1_000 + element
    }
    XCTAssertEqual(table.count, 200)
    XCTAssertEqual(Set(table.keys.map(\.hashValue)).count, 200)
    XCTAssertEqual(table[cancelID(step(42))], 42)
    XCTAssertEqual(table[cancelID(step(42), under: parent)], 1_042)
    XCTAssertNil(table[cancelID(step(nil))])
  }

  /// An id under a row's step hashes by the row's element id and the path's length: ids of a
  /// hundred rows (one id, one key path) hash apart, an id built apart hashes as the one in
  /// the table, and the same rows one level deeper hash apart from them.
  func testIDsUnderRowsHashApartByElementAndDepth() {
    func row(_ element: Int) -> NavigationID {
      NavigationID(kind: .forEach, keyPath: \Pair.left, elementID: AnyHashableSendable(element))
    }
    func cancelID(_ element: Int, under parent: NavigationIDPath = NavigationIDPath())
      -> EffectCancelID
    {
      EffectCancelID(
        id: AnyHashableSendable(CancelID.search), navigationIDPath: parent.appending(row(element)))
    }
    let shallow = (0..<100).map { cancelID($0) }
    XCTAssertEqual(Set(shallow.map(\.hashValue)).count, 100)
    XCTAssertEqual(Set(shallow).count, 100)
    XCTAssertEqual(cancelID(42).hashValue, shallow[42].hashValue)
    XCTAssertEqual(cancelID(42), shallow[42])
    XCTAssertEqual(row(7).hashValue, row(7).hashValue)
    XCTAssertNotEqual(row(7).hashValue, row(8).hashValue)

    let sheet = NavigationIDPath().appending(
      NavigationID(kind: .presentation, keyPath: \Pair.right))
    let deep = (0..<100).map { cancelID($0, under: sheet) }
    XCTAssertEqual(Set((shallow + deep).map(\.hashValue)).count, 200)
    XCTAssertEqual(Set(shallow + deep).count, 200)
  }

  /// The store files an effect under each of its ids at each prefix of the id's path, as
  /// keys made from the id itself (`CancelKey(id, length:)`). Each key is the id made at that
  /// prefix: equal to it and hashing alike, apart from the other prefixes, from another id and
  /// from another path of the same length; a table of every prefix of ids under two rows of
  /// a sheet holds each prefix once and finds it from ids built apart.
  func testAKeyAtAPrefixOfAnIDsPathIsTheIDMadeAtThatPrefix() {
    func sheet() -> NavigationID { NavigationID(kind: .presentation, keyPath: \Pair.right) }
    func row(_ element: Int) -> NavigationID {
      NavigationID(kind: .forEach, keyPath: \Pair.left, elementID: AnyHashableSendable(element))
    }
    func cancelID(_ id: CancelID, _ steps: [NavigationID]) -> EffectCancelID {
      EffectCancelID(id: AnyHashableSendable(id), navigationIDPath: NavigationIDPath(path: steps))
    }
    let deep = cancelID(.search, [sheet(), row(7)])
    let prefixes = [
      cancelID(.search, []), cancelID(.search, [sheet()]), cancelID(.search, [sheet(), row(7)]),
    ]
    for length in 0...2 {
      let key = CancelKey(deep, length: length)
      XCTAssertEqual(key, CancelKey(prefixes[length]), "length \(length)")
      XCTAssertEqual(key.hashValue, CancelKey(prefixes[length]).hashValue, "length \(length)")
      XCTAssertEqual(key.hashValue, prefixes[length].hashValue, "length \(length)")
      for other in 0...2 where other != length {
        XCTAssertNotEqual(key, CancelKey(deep, length: other), "\(length) vs \(other)")
      }
    }
    XCTAssertEqual(CancelKey(deep), CancelKey(deep, length: 2))
    XCTAssertNotEqual(CancelKey(deep, length: 0), CancelKey(cancelID(.row(7), [])))
    XCTAssertNotEqual(CancelKey(deep, length: 1), CancelKey(cancelID(.row(7), [sheet()])))
    XCTAssertNotEqual(CancelKey(deep, length: 1), CancelKey(cancelID(.search, [row(7)])))
    XCTAssertNotEqual(CancelKey(deep), CancelKey(cancelID(.search, [sheet(), row(8)])))

    var table: [CancelKey: [Int]] = [:]
    for element in [7, 8] {
      let id = cancelID(.search, [sheet(), row(element)])
      for length in 0...2 { table[CancelKey(id, length: length), default: []].append(element) }
    }
    XCTAssertEqual(table.count, 4)
    XCTAssertEqual(table[CancelKey(cancelID(.search, []))], [7, 8])
    XCTAssertEqual(table[CancelKey(cancelID(.search, [sheet()]))], [7, 8])
    XCTAssertEqual(table[CancelKey(cancelID(.search, [sheet(), row(7)]))], [7])
    XCTAssertEqual(table[CancelKey(cancelID(.search, [sheet(), row(8)]))], [8])
    XCTAssertNil(table[CancelKey(cancelID(.search, [row(7)]))])
  }
}
