import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A trail of legs on a navigation stack; each leg runs a timer.
private struct Trail: Reducer {
  struct State: Equatable, Codable, Sendable {
    var path = StackState<Leg.State>()
  }

  enum Action: Equatable, Codable, Sendable {
    case path(StackActionOf<Leg>)
    case addLeg(String)
    case clear
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .addLeg(name):
        state.path.append(Leg.State(name: name))
      case .clear:
        state.path.removeAll()
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: AnyCasePath(Action.path) {
      if case let .path(action) = $0 { action } else { nil }
    }) {
      Leg()
    }
  }
}

private struct Leg: Reducer {
  struct State: Equatable, Codable, Sendable {
    var name: String
  }

  enum Action: Equatable, Codable, Sendable {
    case walk
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in try await clock.sleep(for: .seconds(3600)) }
  }
}

@MainActor
final class RecorderStackTests: XCTestCase {
  func testAStackIsANodeOfTheTreeAndPoppingCancelsItsElementsEffects() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trail.rewind")
    let clock = TestClock()
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Trail.State()) {
      Trail().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.addLeg("north"))  // 1
    store.send(.path(.element(id: store.path.ids[0], action: .walk)))  // 2
    await clock.waitForSleepers(1)
    store.send(.clear)  // 3
    await clock.waitForSleepers(0)
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)

    let reader = try TraceReader(path: path)
    let tree = try XCTUnwrap(try reader.tree())
    XCTAssertEqual(
      tree.lines,
      [
        "Recorder Trail",
        "  reducer Trail",
        "    Reduce",
        "    stack Leg state=path action=path",
        "      reducer Leg",
      ])
    let effects = try reader.effects()
    XCTAssertEqual(effects.map(\.outcome), [.cancelled(reason: "stack", byStep: 3)])
    XCTAssertEqual(try reader.rows(from: 0, to: 10).map(\.actionPath), [
      "", "addLeg", "path.element.walk", "clear",
    ])
  }
}
