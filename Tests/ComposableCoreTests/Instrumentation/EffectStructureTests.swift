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
