import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A feature whose effect reads a client, twice over two taps, and whose reducer reads
/// another.
private struct Pinger: Reducer {
  struct State: Codable, Equatable, Sendable {
    var pongs: [Int] = []
    var label = ""
  }

  enum Action: Codable, Equatable, Sendable {
    case ping, pong(Int)
  }

  @Dependency(\.pingClient) var pingClient
  @Dependency(\.pingLabel) var pingLabel

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping:
      state.label = pingLabel
      return .run { send in
        @Dependency(\.pingClient) var client
        await send(.pong(await client.ping()))
      }
    case .pong(let value):
      state.pongs.append(value)
      return .none
    }
  }
}

struct PingClient: Sendable {
  var ping: @Sendable () async -> Int
}

enum PingClientKey: DependencyKey {
  static let liveValue = PingClient { 7 }
  static let testValue = PingClient { 7 }
}

private enum PingLabelKey: DependencyKey {
  static let liveValue = "ping"
  static let testValue = "ping"
}

extension DependencyValues {
  fileprivate var pingClient: PingClient {
    get { self[PingClientKey.self] }
    set { self[PingClientKey.self] = newValue }
  }

  fileprivate var pingLabel: String {
    get { self[PingLabelKey.self] }
    set { self[PingLabelKey.self] = newValue }
  }
}

/// The dependency keys a recorded feature read, from its reducer and its effects, each once.
@MainActor
final class DependencyKeysRecordingTests: XCTestCase {
  func testTheKeysTheReducerAndTheEffectsReadAreListedOnceInTheOrderFirstRead() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("pinger.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Pinger.State()) {
      Pinger().recording(to: recorder)
    }
    store.send(.ping)
    while store.state.pongs.count < 1 { await Task.yield() }
    store.send(.ping)
    while store.state.pongs.count < 2 { await Task.yield() }
    recorder.finish()
    await recorder.waitUntilFinished()

    let keys = try XCTUnwrap(try TraceReader(path: path).dependencyKeys())
    XCTAssertEqual(
      keys,
      [
        DependencyKeyRecord(
          keyType: "TraceRecorderTests.(private).PingLabelKey", valueType: "Swift.String"),
        DependencyKeyRecord(
          keyType: "TraceRecorderTests.PingClientKey", valueType: "TraceRecorderTests.PingClient"),
      ])
  }
}
