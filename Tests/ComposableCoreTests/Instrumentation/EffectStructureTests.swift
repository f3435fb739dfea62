import ComposableCore
import XCTest

final class EffectStructureTests: XCTestCase {
  func testRunLeafKnowsWhereItWasCreated() {
    let effect = Effect<Int>.run { _ in }
    guard case let .run(run) = effect.node else {
      return XCTFail("expected a run leaf, got \(effect.node)")
    }
    XCTAssertEqual(run.location?.description, "ComposableCoreTests/EffectStructureTests.swift:6")
    XCTAssertNil(run.priority)
  }

  func testCancellableWrapperCarriesNavigationScopedID() {
    let effect = withDependencies {
      $0.navigationIDPath = NavigationIDPath().appending(
        NavigationID(kind: .forEach, keyPath: \Parent.State.rows, elementID: .init(3)))
    } operation: {
      Effect<Int>.send(1).cancellable(id: "timer", cancelInFlight: true)
    }
    guard case let .cancellable(id, cancelInFlight, child) = effect.node else {
      return XCTFail("expected a cancellable wrapper, got \(effect.node)")
    }
    XCTAssertEqual(id.description, "timer @ [forEach(rows)#3]")
    XCTAssertTrue(cancelInFlight)
    guard case .send(1) = child.node else {
      return XCTFail("expected the wrapped send, got \(child.node)")
    }
  }

  /// An effect is one word whatever its action, and a mapped merge of a concatenation keeps
  /// its parts, in order, mapped.
  func testAnEffectIsOneWordAndMappingKeepsItsStructure() {
    XCTAssertEqual(MemoryLayout<Effect<Int>>.size, 8)
    XCTAssertEqual(MemoryLayout<Effect<[String: [Int]]>>.size, 8)
    let effect = Effect<Int>.merge(.concatenate(.send(1), .send(2)), .send(3)).map { $0 * 10 }
    guard case let .merge(children) = effect.node, children.count == 2,
      case let .concatenate(parts) = children[0].node, parts.count == 2,
      case .send(10) = parts[0].node, case .send(20) = parts[1].node,
      case .send(30) = children[1].node
    else {
      return XCTFail("expected merge(concatenate(10, 20), 30), got \(effect.node)")
    }
  }

  func testMergeFlattensAndDropsNone() {
    let effect = Effect<Int>.merge(.none, .merge(.send(1), .send(2)), .send(3))
    guard case let .merge(children) = effect.node else {
      return XCTFail("expected a merge, got \(effect.node)")
    }
    XCTAssertEqual(children.count, 3)
    guard case .none = Effect<Int>.merge(.none, .none).node else {
      return XCTFail("a merge of nothing is nothing")
    }
  }

  func testConcatenateDropsNoneAndKeepsTheOrder() {
    /// The sends of a concatenation, in order (`nil` when it is not one).
    func sends(_ effect: Effect<Int>) -> [Int]? {
      guard case let .concatenate(children) = effect.node else { return nil }
      return children.map {
        if case let .send(value) = $0.node { value } else { -1 }
      }
    }
    XCTAssertEqual(sends(.concatenate(.send(1), .send(2), .send(3))), [1, 2, 3])
    XCTAssertEqual(sends(.concatenate(.none, .send(1), .none, .send(2), .none)), [1, 2])
    XCTAssertEqual(sends(.concatenate([.send(4), .none, .send(5)].lazy.map { $0 })), [4, 5])
    XCTAssertEqual(sends(Effect.send(6).concatenate(with: .send(7))), [6, 7])
    // Mapped, each part in its place (two parts and three take different paths).
    XCTAssertEqual(sends(Effect.concatenate(.send(1), .send(2)).map { $0 * 10 }), [10, 20])
    XCTAssertEqual(
      sends(Effect.concatenate(.send(1), .send(2), .send(3)).map { $0 * 10 }), [10, 20, 30])
    guard case let .merge(merged) = Effect<Int>.merge(.send(1), .send(2)).map({ $0 + 1 }).node,
      merged.count == 2, case .send(2) = merged[0].node, case .send(3) = merged[1].node
    else {
      return XCTFail("a mapped merge keeps its parts in order")
    }
    // One part left is the part itself, no part is nothing.
    guard case .send(8) = Effect<Int>.concatenate(.none, .send(8), .none).node else {
      return XCTFail("a concatenation of one part is that part")
    }
    guard case .send(9) = Effect<Int>.send(9).concatenate(with: .none).node else {
      return XCTFail("a concatenation with nothing is the other part")
    }
    guard case .none = Effect<Int>.concatenate(.none, .none).node else {
      return XCTFail("a concatenation of nothing is nothing")
    }
    guard case .none = Effect<Int>.concatenate([Effect<Int>]()).node else {
      return XCTFail("a concatenation of nothing is nothing")
    }
  }

  func testDebounceIsAWaitThenTheEffectUnderItsID() {
    let effect = Effect<Int>.send(1).debounce(
      id: "save", for: .seconds(1), clock: ContinuousClock())
    guard case let .cancellable(id, cancelInFlight, child) = effect.node else {
      return XCTFail("expected a cancellable wrapper, got \(effect.node)")
    }
    XCTAssertEqual(id.description, "save")
    XCTAssertTrue(cancelInFlight)
    guard case let .concatenate(parts) = child.node, parts.count == 2,
      case .run = parts[0].node, case .send(1) = parts[1].node
    else {
      return XCTFail("expected a wait, then the effect, got \(child.node)")
    }
    guard case .none = Effect<Int>.none.debounce(id: "save", for: .seconds(1)).node else {
      return XCTFail("a debounced nothing is nothing")
    }
  }

  func testWrappingARunLeafObservesItsSends() async {
    let effect = Effect<Int>.run { send in await send(1) }
    guard case var .run(run) = effect.node else {
      return XCTFail("expected a run leaf")
    }
    let seen = Seen()
    let operation = run.operation
    run.operation = { send in
      await operation(Send { action in seen.values.append(action * 10); send(action) })
    }
    let delivered = Seen()
    await run.operation(Send { delivered.values.append($0) })
    let wrapped = await seen.values
    let received = await delivered.values
    XCTAssertEqual(wrapped, [10])
    XCTAssertEqual(received, [1])
  }
}

@MainActor
private final class Seen {
  var values: [Int] = []
}
