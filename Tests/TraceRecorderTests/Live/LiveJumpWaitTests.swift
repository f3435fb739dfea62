import ComposableCore
import Foundation
import LiveAttach
import TestSupport
@testable import TraceRecorder
import XCTest

/// A jump to a step the store captured and the writer has not put in the live history yet:
/// `ps` and the answer to a send already name that step, so the jump waits for it rather than
/// being refused (and a jump past the store's last step is refused with the range `ps`
/// names). A watch begun then waits too, so that the history it is sent before `historyEnd`
/// holds every step the store had taken. The writer is held inside the step's state encoding
/// (`WriterValve`), so the history is behind for as long as the test says, whatever the
/// machine's speed.
@MainActor
final class LiveJumpWaitTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory(prefix: "rewind-live-wait")
    StallFeature.valve.reset()
  }

  override func tearDown() async throws {
    StallFeature.valve.open()
  }

  private func record() throws -> (Recorder, StoreOf<StallFeature>) {
    let live = Recorder.Live(name: "wait-test", directory: directory.path("run"))
    let recorder = try Recorder(configuration: Recorder.Configuration(live: live))
    let store = Store(initialState: StallFeature.State()) {
      StallFeature().recording(to: recorder)
    }
    return (recorder, store)
  }

  private func connect() async throws -> TestClient {
    let path = directory.path("run") + "/\(getpid()).sock"
    return try await Task.detached { TestClient(try LiveClient(socketPath: path)) }.value
  }

  /// Steps 1 and 2 reach the history; step 3's encoding is held; step 4 is captured behind it.
  private func holdTheWriterAtStep3(_ store: StoreOf<StallFeature>) async throws -> TestClient {
    store.send(.set(1))
    store.send(.set(2))
    let heldTwo = await eventually {
      (try? LiveClient(socketPath: self.directory.path("run") + "/\(getpid()).sock"))?
        .welcome.lastStep == 2
    }
    XCTAssertTrue(heldTwo, "step 2 never reached the history")
    StallFeature.valve.close()
    store.send(.set(3))
    store.send(.set(4))
    let holding = await eventually { StallFeature.valve.isHolding }
    XCTAssertTrue(holding, "the writer never began encoding step 3")
    let client = try await connect()
    XCTAssertEqual(client.welcome.lastStep, 2, "the history")
    XCTAssertEqual(client.welcome.status.lastStep, 4, "the store")
    return client
  }

  func testAJumpToACapturedStepWaitsForTheHistoryAndOtherConnectionsAreNotHeld() async throws {
    let (recorder, store) = try record()
    let client = try await holdTheWriterAtStep3(store)
    let jump = Task { try await client.run(.jump(step: 3)) }
    let waits = await eventually { recorder.liveRequestsWaiting == 1 }
    XCTAssertTrue(waits, "the jump was not held back")
    // Another inspector's command is answered while the jump waits.
    let other = try await connect()
    let status = try await other.run(.status)
    XCTAssertEqual(status.status, LiveStatus(lastStep: 4, isPaused: false))
    XCTAssertNil(status.step)
    StallFeature.valve.open()
    let answer = try await jump.value
    XCTAssertEqual(answer.step, 5)
    XCTAssertEqual(
      answer.status, LiveStatus(lastStep: 5, isPaused: true, jumpedTo: 3, presentStep: 4))
    XCTAssertEqual(store.value, 3)
    // A step past the store's is refused once the history holds every step the store had
    // (step 5, the jump's own, is still on its way to the history when this arrives), with
    // the range that `ps` names.
    await client.assertRefused(
      .jump(step: 9), code: "notHeld", "step 9 is not in the history held in memory (steps 0…5)")
    XCTAssertEqual(recorder.liveRequestsWaiting, 0)
    recorder.finish()
  }

  func testAJumpWhoseStepTheHistoryStopsShortOfIsRefusedAfterTheWait() async throws {
    let (recorder, store) = try record()
    let client = try await holdTheWriterAtStep3(store)
    // The writer stays held: the history stops at step 2, and after `historyWait` the jump
    // is refused with what the history holds.
    await client.assertRefused(
      .jump(step: 4), code: "notHeld", "step 4 is not in the history held in memory (steps 0…2)")
    XCTAssertEqual(recorder.liveRequestsWaiting, 0)
    StallFeature.valve.open()
    XCTAssertEqual(store.value, 4)
    recorder.finish()
  }

  func testAWatchBegunWhileTheWriterIsBehindIsSentEveryCapturedStepBeforeHistoryEnd()
    async throws
  {
    let (recorder, store) = try record()
    let client = try await holdTheWriterAtStep3(store)
    try await client.off { try $0.watch(live: true) }
    let waits = await eventually { recorder.liveRequestsWaiting == 1 }
    XCTAssertTrue(waits, "the watch did not wait for the history")
    StallFeature.valve.open()
    let lines = try await client.lines(until: { $0.hasPrefix("historyEnd") })
    XCTAssertEqual(lines, ["start StallFeature"] + (1...4).map(Self.stepLine) + ["historyEnd 4"])
    XCTAssertEqual(recorder.liveRequestsWaiting, 0)
    store.send(.set(5))
    let live = try await client.lines(until: { $0.hasPrefix("step 5") })
    XCTAssertEqual(live, [Self.stepLine(5)])
    recorder.finish()
  }

  func testAWatchWhoseStepsTheHistoryStopsShortOfIsSentWhatItHoldsAfterTheWait() async throws {
    let (recorder, store) = try record()
    let client = try await holdTheWriterAtStep3(store)
    try await client.off { try $0.watch(live: true) }
    // The writer stays held: the history stops at step 2, and after `historyWait` the watch
    // is sent what the history holds; steps 3 and 4 follow once the writer goes on.
    let lines = try await client.lines(until: { $0.hasPrefix("historyEnd") })
    XCTAssertEqual(lines, ["start StallFeature"] + (1...2).map(Self.stepLine) + ["historyEnd 2"])
    XCTAssertEqual(recorder.liveRequestsWaiting, 0)
    StallFeature.valve.open()
    let live = try await client.lines(until: { $0.hasPrefix("step 4") })
    XCTAssertEqual(live, (3...4).map(Self.stepLine))
    recorder.finish()
  }

  /// `TestClient.summary` of step `step`, a `.set(step)` sent by the user.
  private static func stepLine(_ step: Int) -> String {
    "step \(step) user set [value, stall]"
  }
}

/// A value whose encoding passes `StallFeature.valve`: closed, the writer thread stops inside
/// the step's state encoding until the test opens it.
struct StallFeature: Reducer {
  static let valve = WriterValve()

  struct State: Codable, Equatable, Sendable {
    var value = 0
    var stall = Stall()
  }

  struct Stall: Codable, Equatable, Sendable {
    var value = 0

    init() {}

    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(Int.self)
    }

    func encode(to encoder: any Encoder) throws {
      StallFeature.valve.pass()
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  enum Action: Codable, Equatable, Sendable {
    case set(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let value):
      state.value = value
      state.stall.value = value
      return .none
    }
  }
}

/// Holds whichever thread passes it while it is closed.
final class WriterValve: Sendable {
  private let state = NSCondition()
  nonisolated(unsafe) private var closed = false
  nonisolated(unsafe) private var holding = false

  func reset() {
    state.lock()
    closed = false
    holding = false
    state.unlock()
  }

  func close() {
    state.lock()
    closed = true
    state.unlock()
  }

  func open() {
    state.lock()
    closed = false
    state.broadcast()
    state.unlock()
  }

  /// Whether a thread waits at the valve.
  var isHolding: Bool {
    state.lock()
    defer { state.unlock() }
    return holding
  }

  func pass() {
    state.lock()
    while closed {
      holding = true
      state.wait()
    }
    holding = false
    state.unlock()
  }
}
