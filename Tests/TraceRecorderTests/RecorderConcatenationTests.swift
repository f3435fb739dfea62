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
  func testSendAfterAnAsynchronousPartIsAnEffectOfItsOwn() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("chain.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Chain.State()) { Chain().recording(to: recorder) }
    store.send(.start)
    await waitUntil("both parts ran") { store.state.log.count == 3 }
    await waitUntil("both effects ended") { recorder.queuedEvents == 0 }
    recorder.finish()
    XCTAssertEqual(store.state.log, ["start", "loaded", "done"])

    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 1, to: 3)
    XCTAssertEqual(rows.map(\.actionPath), ["start", "loaded", "done"])
    let effects = try reader.effects()
      .sorted { ($0.sentSteps.first ?? 0) < ($1.sentSteps.first ?? 0) }
    XCTAssertEqual(effects.count, 2)
    XCTAssertEqual(effects.map(\.startedByStep), [1, 1])
    XCTAssertEqual(effects.map(\.sentSteps), [[2], [3]])
    XCTAssertEqual(effects.map(\.outcome), [.finished, .finished])
    XCTAssertEqual(rows[0].origin, .user)
    XCTAssertEqual(rows[1].origin, .effect(effects[0].id))
    XCTAssertEqual(rows[2].origin, .effect(effects[1].id))
  }
}
