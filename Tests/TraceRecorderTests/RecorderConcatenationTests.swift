import ComposableCore
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A concatenation whose `.send` comes after an asynchronous part.
private struct Chain: Reducer {
  struct State: Equatable, Sendable, Codable {
    var log: [String] = []
  }

  enum Action: Equatable, Sendable, Codable {
    case start, loaded, done
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        state.log.append("start")
        return .concatenate(.run { send in await send(.loaded) }, .send(.done))
      case .loaded:
        state.log.append("loaded")
        return .none
      case .done:
        state.log.append("done")
        return .none
      }
    }
  }
}

@MainActor
final class RecorderConcatenationTests: XCTestCase {
  /// The core runs the parts after the first asynchronous one in a task of its own, an effect
  /// of the trace: the `.send` after the `.run` comes from it, the `.run`'s action from the run.
  func testSendAfterAnAsynchronousPartComesFromTheConcatenation() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("chain.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Chain.State()) { Chain().recording(to: recorder) }
    await store.send(.start).finish()
    await recorder.waitUntilFinished()
    XCTAssertEqual(store.state.log, ["start", "loaded", "done"])

    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 1, to: 3)
    XCTAssertEqual(rows.map(\.actionPath), ["start", "loaded", "done"])
    // In start order: the concatenation, then the run it started.
    let effects = try reader.effects().sorted { ($0.startNanos ?? 0) < ($1.startNanos ?? 0) }
    XCTAssertEqual(effects.count, 2)
    XCTAssertEqual(effects.map(\.startedByStep), [1, 1])
    XCTAssertEqual(effects.map(\.sentSteps), [[3], [2]])
    XCTAssertEqual(effects.map(\.outcome), [.finished, .finished])
    XCTAssertEqual(effects.map(\.line), [nil, 23])
    XCTAssertEqual(rows.map(\.origin), [.user, .effect(effects[1].id), .effect(effects[0].id)])
  }
}
