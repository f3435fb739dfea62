import ComposableCore
import Dispatch
import Synchronization
import XCTest

/// The case paths `AnyCasePath(_:)` makes from case key paths are cached by key path: every key
/// path must still find its own case, however it reaches the conversion.
final class CaseKeyPathCacheTests: XCTestCase {
  /// Two cases with one payload type: their key paths have one class.
  enum Pair: Equatable, Sendable, CasePathable {
    case first(Int)
    case second(Int)
    case nested(Inner)

    struct AllCasePaths {
      var first: AnyCasePath<Pair, Int> {
        AnyCasePath(embed: Pair.first) {
          guard case let .first(value) = $0 else { return nil }
          return value
        }
      }
      var second: AnyCasePath<Pair, Int> {
        AnyCasePath(embed: Pair.second) {
          guard case let .second(value) = $0 else { return nil }
          return value
        }
      }
      var nested: AnyCasePath<Pair, Inner> {
        AnyCasePath(embed: Pair.nested) {
          guard case let .nested(value) = $0 else { return nil }
          return value
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Inner: Equatable, Sendable, CasePathable {
    case leaf(Int)
    case other(Int)

    struct AllCasePaths {
      var leaf: AnyCasePath<Inner, Int> {
        AnyCasePath(embed: Inner.leaf) {
          guard case let .leaf(value) = $0 else { return nil }
          return value
        }
      }
      var other: AnyCasePath<Inner, Int> {
        AnyCasePath(embed: Inner.other) {
          guard case let .other(value) = $0 else { return nil }
          return value
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// An enum of the same shape as `Inner`, with the same case names.
  enum Twin: Equatable, Sendable, CasePathable {
    case leaf(Int)
    case other(Int)

    struct AllCasePaths {
      var leaf: AnyCasePath<Twin, Int> {
        AnyCasePath(embed: Twin.leaf) {
          guard case let .leaf(value) = $0 else { return nil }
          return value
        }
      }
      var other: AnyCasePath<Twin, Int> {
        AnyCasePath(embed: Twin.other) {
          guard case let .other(value) = $0 else { return nil }
          return value
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// One call site every key path goes through, as a variable.
  private func convert(_ keyPath: CaseKeyPath<Pair, Int>) -> AnyCasePath<Pair, Int> {
    AnyCasePath(keyPath)
  }

  func testAVariableKeyPathThroughOneCallSiteFindsItsOwnCase() {
    let keyPaths: [CaseKeyPath<Pair, Int>] = [
      \.first, \.second, \.nested.leaf, \.nested.other, \.first, \.nested.leaf,
    ]
    let paths = keyPaths.map(convert)
    XCTAssertEqual(paths.map { $0.embed(7) }, [
      .first(7), .second(7), .nested(.leaf(7)), .nested(.other(7)), .first(7), .nested(.leaf(7)),
    ])
    XCTAssertEqual(paths.map { $0.extract(.second(3)) }, [nil, 3, nil, nil, nil, nil])
    XCTAssertEqual(
      paths.map { $0.extract(.nested(.leaf(4))) }, [nil, nil, 4, nil, nil, 4])
    XCTAssertEqual(
      paths.map { $0.extract(.nested(.other(5))) }, [nil, nil, nil, 5, nil, nil])
    XCTAssertEqual(
      paths.map(\.name), ["first", "second", "nested.leaf", "nested.other", "first", "nested.leaf"])
    XCTAssertEqual(paths[0].id, paths[4].id)
    XCTAssertEqual(paths[2].id, paths[5].id)
    XCTAssertNotEqual(paths[0].id, paths[1].id)
    XCTAssertNotEqual(paths[2].id, paths[3].id)
    XCTAssertNotEqual(paths[0].id, paths[2].id)
  }

  func testDeeperShallowerAndSelfAreDifferentCases() {
    let nested = AnyCasePath(\Pair.Cases.nested)
    let leaf = AnyCasePath(\Pair.Cases.nested.leaf)
    let whole = AnyCasePath(\Pair.Cases.self)
    XCTAssertEqual(nested.extract(.nested(.leaf(1))), .leaf(1))
    XCTAssertEqual(leaf.extract(.nested(.leaf(1))), 1)
    XCTAssertEqual(whole.extract(.nested(.leaf(1))), .nested(.leaf(1)))
    XCTAssertEqual(whole.embed(.first(2)), .first(2))
    XCTAssertEqual(nested.name, "nested")
    XCTAssertEqual(leaf.name, "nested.leaf")
    XCTAssertNil(whole.name)
    XCTAssertEqual(whole.id, AnyCasePath(\Pair.Cases.self).id)
    XCTAssertNotEqual(whole.id, nested.id)
    // `\.self` of another enum is another case path.
    let twinWhole = AnyCasePath(\Twin.Cases.self)
    XCTAssertEqual(twinWhole.extract(.other(3)), .other(3))
    XCTAssertNotEqual(twinWhole.id, whole.id)
  }

  func testTwoEnumsOfOneShapeKeepTheirOwnCases() {
    let inner = AnyCasePath(\Inner.Cases.leaf)
    let twin = AnyCasePath(\Twin.Cases.leaf)
    XCTAssertEqual(inner.embed(8), .leaf(8))
    XCTAssertEqual(twin.embed(8), .leaf(8))
    XCTAssertEqual(inner.extract(.leaf(9)), 9)
    XCTAssertEqual(twin.extract(.leaf(9)), 9)
    XCTAssertNil(inner.extract(.other(9)))
    XCTAssertNil(twin.extract(.other(9)))
    XCTAssertEqual(inner.name, "leaf")
    XCTAssertEqual(twin.name, "leaf")
    XCTAssertNotEqual(inner.id, twin.id)
    // And again, now that both are cached.
    XCTAssertEqual(AnyCasePath(\Twin.Cases.other).embed(1), .other(1))
    XCTAssertEqual(AnyCasePath(\Inner.Cases.other).embed(1), .other(1))
  }

  func testSubscriptArgumentsKeepTheirElements() {
    typealias Rows = IdentifiedAction<Int, Inner>
    func convert(_ keyPath: CaseKeyPath<Rows, Inner>) -> AnyCasePath<Rows, Inner> {
      AnyCasePath(keyPath)
    }
    let paths = [2, 3, 2].map { id in convert(\Rows.Cases[id: id]) }
    XCTAssertEqual(paths.map { $0.extract(.element(id: 3, action: .leaf(1))) }, [nil, .leaf(1), nil])
    XCTAssertEqual(paths.map { $0.embed(.other(0)) }, [
      .element(id: 2, action: .other(0)), .element(id: 3, action: .other(0)),
      .element(id: 2, action: .other(0)),
    ])
    XCTAssertEqual(paths.map(\.name), ["[id: 2]", "[id: 3]", "[id: 2]"])
    XCTAssertEqual(paths[0].id, paths[2].id)
    XCTAssertNotEqual(paths[0].id, paths[1].id)
  }

  func testAKeyPathToAMemberAndOneThroughCaseNameOneCase() {
    let member = AnyCasePath(\Pair.AllCasePaths.second)
    let throughCase = AnyCasePath(\Pair.Cases.second)
    XCTAssertEqual(member.embed(4), .second(4))
    XCTAssertEqual(member.extract(.second(5)), 5)
    XCTAssertNil(member.extract(.first(5)))
    XCTAssertEqual(member.name, "second")
    XCTAssertEqual(member.id, throughCase.id)
    XCTAssertEqual(Set([member.id, throughCase.id]).count, 1)
    XCTAssertNotEqual(member.id, AnyCasePath(\Pair.AllCasePaths.first).id)
    XCTAssertNotEqual(member.id, AnyCasePath(\Pair.Cases.first).id)
    XCTAssertNotEqual(member.id, AnyCasePath(\Pair.Cases.self).id)
    // A deeper key path through `Case` is another case, however it starts.
    XCTAssertNotEqual(
      AnyCasePath(\Pair.AllCasePaths.nested).id, AnyCasePath(\Pair.Cases.nested.leaf).id)
    // Two enums of one shape: members of the same name are different cases.
    XCTAssertNotEqual(
      AnyCasePath(\Inner.AllCasePaths.leaf).id, AnyCasePath(\Twin.AllCasePaths.leaf).id)
    XCTAssertEqual(AnyCasePath(\Twin.AllCasePaths.leaf).embed(2), .leaf(2))
    XCTAssertEqual(AnyCasePath(\Inner.AllCasePaths.leaf).embed(2), .leaf(2))
  }

  func testAMemberWithASubscriptArgumentKeepsItsElement() {
    typealias Rows = IdentifiedAction<Int, Inner>
    func convert(_ member: CaseMemberKeyPath<Rows, Inner>) -> AnyCasePath<Rows, Inner> {
      AnyCasePath(member)
    }
    let paths = [2, 3, 2].map { id in convert(\Rows.AllCasePaths[id: id]) }
    XCTAssertEqual(
      paths.map { $0.extract(.element(id: 3, action: .leaf(1))) }, [nil, .leaf(1), nil])
    XCTAssertEqual(paths.map(\.name), ["[id: 2]", "[id: 3]", "[id: 2]"])
    XCTAssertEqual(paths[0].id, paths[2].id)
    XCTAssertNotEqual(paths[0].id, paths[1].id)
    XCTAssertEqual(paths[1].id, AnyCasePath(\Rows.Cases[id: 3]).id)
  }

  func testAKeyPathClassKeepsAtMostItsLimitAndStillFindsEveryCase() {
    // A class no other test converts: key paths through `Case` to the rows of `Twin`.
    typealias Rows = IdentifiedAction<Int, Twin>
    func convert(_ keyPath: CaseKeyPath<Rows, Twin>) -> AnyCasePath<Rows, Twin> {
      AnyCasePath(keyPath)
    }
    let limit = CaseKeyPathCache.entriesPerClass
    let first = convert(\Rows.Cases[id: 0])
    var wrong: [Int] = []
    for id in 0..<(limit + 10) {
      let path = convert(\Rows.Cases[id: id])
      if path.extract(.element(id: id, action: .leaf(id))) != .leaf(id)
        || path.extract(.element(id: id + 1, action: .leaf(id))) != nil
        || path.name != "[id: \(id)]"
      {
        wrong.append(id)
      }
    }
    XCTAssertEqual(wrong, [])
    // The class was full at `limit` and started again with the ten after it.
    XCTAssertEqual(CaseKeyPathCache.entryCount(forClassOf: \Rows.Cases[id: 0]), 10)
    let again = convert(\Rows.Cases[id: 0])
    XCTAssertEqual(again.id, first.id)
    XCTAssertEqual(again.name, "[id: 0]")
    XCTAssertEqual(CaseKeyPathCache.entryCount(forClassOf: \Rows.Cases[id: 0]), 11)
    // Found again, not added.
    XCTAssertEqual(convert(\Rows.Cases[id: limit + 9]).id, convert(\Rows.Cases[id: limit + 9]).id)
    XCTAssertEqual(CaseKeyPathCache.entryCount(forClassOf: \Rows.Cases[id: 0]), 11)
  }

  func testManyThreadsConvertingTheSameKeyPathsGetTheirOwnCases() {
    let threads = 8
    let ids = 40
    let wrong = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      // Each thread goes through the ids from a different start, twice; a row's case and a
      // case of one payload type alternate, so that conversions of one key path class race.
      for round in 0..<2 {
        for offset in 0..<ids {
          let id = (offset + thread * 7 + round) % ids
          wrong.add(Self.wrongConversions(id: id), ordering: .relaxed)
        }
      }
    }
    XCTAssertEqual(wrong.load(ordering: .relaxed), 0)
    XCTAssertEqual(
      AnyCasePath(\PairRows.Cases[id: 5].second).id, AnyCasePath(\PairRows.Cases[id: 5].second).id)
    XCTAssertNotEqual(
      AnyCasePath(\PairRows.Cases[id: 5].second).id, AnyCasePath(\PairRows.Cases[id: 6].second).id)
  }

  typealias PairRows = IdentifiedAction<Int, Pair>

  /// How many of the conversions of `id`'s key paths name another case than theirs.
  private static func wrongConversions(id: Int) -> Int {
    var wrong = 0
    let row: AnyCasePath<PairRows, Int> = AnyCasePath(\PairRows.Cases[id: id].second)
    if row.extract(.element(id: id, action: .second(id))) != id { wrong += 1 }
    if row.extract(.element(id: id + 1, action: .second(id))) != nil { wrong += 1 }
    if row.name != "[id: \(id)].second" { wrong += 1 }
    let keyPath: CaseKeyPath<Pair, Int> = id.isMultiple(of: 2) ? \.first : \.second
    let expected: Pair = id.isMultiple(of: 2) ? .first(id) : .second(id)
    if AnyCasePath(keyPath).embed(id) != expected { wrong += 1 }
    let member: CaseMemberKeyPath<Pair, Int> =
      id.isMultiple(of: 2) ? \.first : \.second
    if AnyCasePath(member).embed(id) != expected { wrong += 1 }
    if AnyCasePath(member).id != AnyCasePath(keyPath).id { wrong += 1 }
    let element: CaseMemberKeyPath<PairRows, Pair> = \.[id: id]
    if AnyCasePath(element).extract(.element(id: id, action: .first(1))) != .first(1) {
      wrong += 1
    }
    return wrong
  }
}
