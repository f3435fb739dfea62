import ComposableCore
import Foundation
import LiveAttach
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A recording with live attach, steered by a client on the real socket in the same process:
/// what the client receives, and what pause, jump, resume, continue and send do to the store,
/// its exact states and its trace.
@MainActor
final class LiveAttachTests: XCTestCase {
  private let gates = EffectGates()
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory(prefix: "rewind-live")
  }

  private func makeRecorder(
    file: Bool = true, historySteps: Int = 10_000
  ) throws -> Recorder {
    let live = Recorder.Live(
      name: "live-test", historySteps: historySteps, directory: directory.path("run"))
    let configuration = Recorder.Configuration(live: live)
    return file
      ? try Recorder(path: directory.path("t.rewind"), configuration: configuration)
      : try Recorder(configuration: configuration)
  }

  private func makeStore(_ recorder: Recorder) -> StoreOf<LiveFeature> {
    Store(initialState: LiveFeature.State()) {
      LiveFeature(gates: gates).recording(to: recorder)
    }
  }

  private var socketPath: String {
    directory.path("run") + "/\(getpid()).sock"
  }

  /// Connects off the main actor (the main actor must stay free to run the commands).
  private func connect() async throws -> TestClient {
    let path = socketPath
    return try await Task.detached { TestClient(try LiveClient(socketPath: path)) }.value
  }

  func testAWatcherGetsTheHistoryThenEachStepAsItHappens() async throws {
    let recorder = try makeRecorder()
    let store = makeStore(recorder)
    store.send(.plus)
    store.send(.addRow(7))
    store.send(.row(.element(id: 7, action: .tap)))
    try await waitUntilHeld(recorder, step: 3)
    let client = try await connect()
    XCTAssertEqual(client.welcome.name, "live-test")
    XCTAssertEqual(client.welcome.pid, Int(getpid()))
    XCTAssertEqual(client.welcome.rootReducer, "LiveFeature")
    XCTAssertEqual(client.welcome.file, directory.path("t.rewind"))
    XCTAssertEqual(client.welcome.lastStep, 3)
    XCTAssertTrue(client.welcome.canJump)
    XCTAssertTrue(client.welcome.canSend)
    try await client.off { try $0.watch(live: true) }
    var lines = try await client.lines(until: { $0 == "historyEnd 3" })
    store.send(.plus)
    lines += try await client.lines(until: { $0.hasPrefix("step 4") })
    recorder.finish()
    let ending = try await client.lines(until: { $0.hasPrefix("end") })
    XCTAssertEqual(ending, ["end finished"])
    await recorder.waitUntilFinished()
    try await waitUntilGone(socketPath)
    // Exactly the steps of the trace, as the trace has them.
    let (steps, actions) = try tracedSteps(through: 4)
    XCTAssertEqual(actions, ["plus", "addRow", "row.element.tap", "plus"])
    XCTAssertEqual(lines, ["start LiveFeature"] + steps[0..<3] + ["historyEnd 3", steps[3]])
  }

  /// The store captured three steps; the writer (woken by its timer below its threshold) has
  /// put few of them, or none, in the history when the watch begins. The watcher is still
  /// sent all three before `historyEnd`: the history it gets is everything the app held.
  func testAWatchBegunBeforeTheWriterCaughtUpIsSentEveryCapturedStepAsHistory() async throws {
    let recorder = try makeRecorder()
    let store = makeStore(recorder)
    let client = try await connect()
    store.send(.plus)
    store.send(.addRow(7))
    store.send(.row(.element(id: 7, action: .tap)))
    try await client.off { try $0.watch(live: true) }
    let lines = try await client.lines(until: { $0.hasPrefix("historyEnd") })
    recorder.finish()
    await recorder.waitUntilFinished()
    try await waitUntilGone(socketPath)
    let (steps, actions) = try tracedSteps(through: 3)
    XCTAssertEqual(actions, ["plus", "addRow", "row.element.tap"])
    XCTAssertEqual(lines, ["start LiveFeature"] + steps + ["historyEnd 3"])
  }

  /// Steps 1 through `last` of the recorded trace as `TestClient.summary` writes a step, and
  /// their action paths.
  private func tracedSteps(through last: Int) throws -> (lines: [String], actions: [String]) {
    let rows = try TraceReader(path: directory.path("t.rewind")).rows(from: 1, to: last)
    let lines = rows.map { row in
      "step \(row.step) \(row.origin.storageText) \(row.actionPath) ["
        + row.changedPaths.joined(separator: ", ") + "]"
    }
    return (lines, rows.map(\.actionPath))
  }

  func testPauseJumpResumeContinueAndSendChangeTheStoreExactlyAndAreRecorded() async throws {
    let recorder = try makeRecorder()
    let store = makeStore(recorder)
    store.send(.plus)
    store.send(.plus)
    store.send(.plus)
    try await waitUntilHeld(recorder, step: 3)
    let client = try await connect()

    var answer = try await client.run(.pause)
    XCTAssertEqual(answer.status, LiveStatus(lastStep: 3, isPaused: true))
    XCTAssertNil(answer.step)
    store.send(.plus)  // held
    XCTAssertEqual(store.count, 3)

    answer = try await client.run(.jump(step: 1))
    XCTAssertEqual(answer.step, 4)
    XCTAssertEqual(
      answer.status,
      LiveStatus(lastStep: 4, isPaused: true, jumpedTo: 1, presentStep: 3, heldActions: 1))
    XCTAssertEqual(store.state, LiveFeature.State(count: 1))

    answer = try await client.run(.resume)
    XCTAssertEqual(answer.step, 5)
    XCTAssertEqual(answer.status, LiveStatus(lastStep: 6, isPaused: false))
    XCTAssertEqual(store.state, LiveFeature.State(count: 4))

    try await waitUntilHeld(recorder, step: 6)
    answer = try await client.run(.jump(step: 2))
    XCTAssertEqual(answer.step, 7)
    XCTAssertEqual(store.state, LiveFeature.State(count: 2))
    answer = try await client.run(.send(action: try TraceValue(json: #"{"$case":"plus"}"#)))
    XCTAssertEqual(answer.step, 8)
    XCTAssertEqual(store.state, LiveFeature.State(count: 3))
    answer = try await client.run(.continueFromHere)
    XCTAssertEqual(answer.step, 9)
    XCTAssertEqual(answer.status, LiveStatus(lastStep: 9, isPaused: false))
    store.send(.plus)
    XCTAssertEqual(store.state, LiveFeature.State(count: 4))

    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: directory.path("t.rewind"))
    let rows = try reader.rows(from: 1, to: 10)
    XCTAssertEqual(
      rows.map(\.origin),
      [
        .user, .user, .user, .jump(toStep: 1), .jump(toStep: 3), .user, .jump(toStep: 2),
        .inspector, .continued(fromStep: 2), .user,
      ])
    var counts: [Int64] = []
    for step in 1...10 {
      guard case .object(let fields) = try reader.state(at: step),
        case .int(let count) = fields[0].value
      else { return XCTFail("step \(step) has no count") }
      counts.append(count)
    }
    XCTAssertEqual(counts, [1, 2, 3, 1, 3, 4, 2, 3, 3, 4])
    // The trace replays through the reducer, jumps and the inspector's action included.
    let replay = Replay(trace: directory.path("t.rewind"), reducer: LiveFeature(gates: gates))
    XCTAssertEqual("\(try replay.run())", "\(ReplayResult.matched(steps: 10))")
    // Chaos replay tries orders of one timeline: it refuses the jump with the reason.
    XCTAssertThrowsError(try replay.chaos(seed: 1, runs: 5)) { error in
      XCTAssertEqual(
        "\(error)",
        "Cannot replay \(directory.path("t.rewind")) in other orders: step 4 is an attached "
          + "inspector's jump or continue, which replaced the state between recorded actions; "
          + "a plain replay checks it, and chaos replay needs a recording without one")
    }
  }

  func testContinueFromHereCancelsTheEffectsOfTheAbandonedFuture() async throws {
    let recorder = try makeRecorder()
    let store = makeStore(recorder)
    store.send(.load("a"))  // 1: kept
    store.send(.plus)  // 2: the jump's target
    store.send(.load("b"))  // 3: abandoned
    try await waitUntilHeld(recorder, step: 3)
    let client = try await connect()
    _ = try await client.run(.jump(step: 2))
    let answer = try await client.run(.continueFromHere)
    XCTAssertEqual(answer.step, 5)
    gates.open("a")
    try await waitUntilEffectsEnded(store)
    XCTAssertEqual(store.loaded, ["a"])
    await recorder.waitUntilFinished()
    let effects = try TraceReader(path: directory.path("t.rewind")).effects()
    XCTAssertEqual(
      effects.map { "\($0.startedByStep) \($0.cancelID ?? "-") \($0.outcome)" },
      ["1 a finished", "3 b cancelled(reason: \"abandonedFuture\", byStep: Optional(5))"])
    // Replay cancels, at the continue, what the abandoned future left running, and checks
    // the trace recorded exactly that.
    let replay = try Replay(trace: directory.path("t.rewind"), reducer: LiveFeature(gates: gates))
      .run()
    XCTAssertEqual("\(replay)", "\(ReplayResult.matched(steps: 6))")
  }

  func testAHistoryOfNothingIsRefusedWithTheSetting() {
    XCTAssertThrowsError(
      try Recorder(
        configuration: .init(live: .init(historySteps: 0, directory: directory.path("run"))))
    ) {
      XCTAssertEqual(
        "\($0)", "Recorder configuration: live.historySteps is 0; it must be at least 1")
    }
    XCTAssertThrowsError(
      try Recorder(
        path: directory.path("t.rewind"),
        configuration: .init(live: .init(historyMegabytes: -1, directory: directory.path("run"))))
    ) {
      XCTAssertEqual(
        "\($0)", "Recorder configuration: live.historyMegabytes is -1; it must be at least 1")
    }
  }

  func testAJumpToThePresentReturnsThereAndStaysPaused() async throws {
    let recorder = try makeRecorder()
    let store = makeStore(recorder)
    store.send(.load("a"))  // 1
    store.send(.plus)  // 2
    try await waitUntilHeld(recorder, step: 2)
    let client = try await connect()
    _ = try await client.run(.jump(step: 1))
    let answer = try await client.run(.jump(step: 2))
    XCTAssertEqual(answer.step, 4)
    XCTAssertEqual(answer.status, LiveStatus(lastStep: 4, isPaused: true))
    XCTAssertEqual(store.count, 1)
    // Nothing is abandoned: the effect of step 1 still runs and is not cancelled.
    await client.assertRefused(
      .continueFromHere, code: "notJumped",
      "the store has not jumped: there is no jumped state to continue from")
    _ = try await client.run(.resume)
    gates.open("a")
    try await waitUntilEffectsEnded(store)
    XCTAssertEqual(store.loaded, ["a"])
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: directory.path("t.rewind"))
    let origins = try reader.rows(from: 3, to: 5).map(\.origin)
    XCTAssertEqual(Array(origins.prefix(2)), [.jump(toStep: 1), .jump(toStep: 2)])
    guard case .effect = origins[2] else { return XCTFail("step 5: \(origins[2])") }
    let replay = try Replay(trace: directory.path("t.rewind"), reducer: LiveFeature(gates: gates))
      .run()
    XCTAssertEqual("\(replay)", "\(ReplayResult.matched(steps: 5))")
  }

  func testAJumpOutsideTheHistoryOrWithoutAJumpIsRefusedWithTheReason() async throws {
    let recorder = try makeRecorder(file: false)
    let store = makeStore(recorder)
    store.send(.plus)
    try await waitUntilHeld(recorder, step: 1)
    let client = try await connect()
    await client.assertRefused(
      .jump(step: 9), code: "notHeld",
      "step 9 is not in the history held in memory (steps 0…1)")
    await client.assertRefused(
      .continueFromHere, code: "notJumped",
      "the store has not jumped: there is no jumped state to continue from")
    await client.assertRefused(
      .send(action: try TraceValue(json: #"{"$case":"jump"}"#)), code: "notDecodable",
      "the JSON is not a TraceRecorderTests.LiveFeature.Action: no case of Action is named "
        + "'jump'")
    XCTAssertEqual(store.count, 1)
    recorder.finish()
  }

  func testAWatcherThatStopsReadingMissesStepsAndIsToldHowMany() async throws {
    let recorder = try makeRecorder(historySteps: 64)
    let store = makeStore(recorder)
    let client = try await connect()
    try await client.off { try $0.watch(live: true) }
    // The watcher reads nothing while the app records far more than its socket, its output
    // allowance and the history hold.
    let steps = 20_000
    for _ in 0..<steps { store.send(.plus) }
    try await waitUntilHeld(recorder, step: steps)
    recorder.finish()
    let messages = try await client.off { client in
      var messages: [LiveMessage] = []
      while let message = try client.receive(timeout: .seconds(10)) {
        messages.append(message)
        if case .end = message { return messages }
      }
      return messages
    }
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: directory.path("t.rewind"))
    // Every step arrives after the one before it, or after a gap that says how many it skips
    // and a keyframe holding the state the trace holds there. (A keyframe without a gap: the
    // watcher missed only effect events.)
    var last = 0
    var gaps = 0
    var pendingGap: (after: Int, dropped: Int)?
    for message in messages {
      switch message {
      case .step(let record):
        XCTAssertNil(pendingGap, "a step right after a gap")
        XCTAssertEqual(record.step, last + 1)
        last = record.step
      case .gap(let after, let dropped, let reason):
        XCTAssertEqual(reason, .client)
        XCTAssertEqual(after, last)
        pendingGap = (after, dropped)
        gaps += 1
      case .keyframe(let record, let state):
        XCTAssertEqual(
          record.step, pendingGap.map { $0.after + $0.dropped + 1 } ?? last + 1)
        XCTAssertEqual(state, try reader.state(at: record.step))
        XCTAssertEqual(state.stableHash, record.stateHash)
        pendingGap = nil
        last = record.step
      default:
        break
      }
    }
    XCTAssertGreaterThan(gaps, 0)
    XCTAssertEqual(last, steps)
    guard case .end(let reason)? = messages.last else { return XCTFail("no end") }
    XCTAssertEqual(reason, "finished")
  }

  // MARK: Helpers

  /// Waits until the writer has handed `step` to the live history (a client asking for it
  /// before would be told it is not held). It gives up only when the history stops growing
  /// for 10 s: a loaded machine writes 20,000 steps of a debug build slowly, and what the
  /// wait guards against is a writer that stopped.
  private func waitUntilHeld(_ recorder: Recorder, step: Int) async throws {
    let path = socketPath
    var held = -1
    var deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while true {
      let now = (try? LiveClient(socketPath: path, timeout: .seconds(1)))?.welcome.lastStep ?? -1
      if now >= step { return }
      if now > held {
        held = now
        deadline = ContinuousClock.now.advanced(by: .seconds(10))
      }
      guard ContinuousClock.now < deadline else {
        return XCTFail("step \(step) never reached the history (it stopped at step \(held))")
      }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Waits until the store has no effect in flight. The core tells the recorder an effect
  /// ended in the same call that takes it off that list, so the trace records the end: an
  /// effect's action arrives before its operation returns, and a recording finished between
  /// the two records the effect as unfinished.
  private func waitUntilEffectsEnded(_ store: StoreOf<LiveFeature>) async throws {
    let core = try XCTUnwrap(store.core as? RootCore<RecordingReducer<LiveFeature>>)
    let ended = await eventually { core.effectsInFlight.isEmpty }
    XCTAssertTrue(ended, "effects still in flight: \(core.effectsInFlight.map(\.action))")
  }

  private func waitUntilGone(_ path: String) async throws {
    let gone = await eventually { !FileManager.default.fileExists(atPath: path) }
    XCTAssertTrue(gone, "\(path) is still there")
  }
}

/// A `LiveClient` used from a test: its blocking calls run off the main actor.
final class TestClient: @unchecked Sendable {
  let client: LiveClient
  var welcome: LiveWelcome { client.welcome }

  init(_ client: LiveClient) {
    self.client = client
  }

  func off<T: Sendable>(_ body: @escaping @Sendable (LiveClient) throws -> T) async throws -> T {
    let client = self.client
    nonisolated(unsafe) let unsafeClient = client
    return try await Task.detached { try body(unsafeClient) }.value
  }

  func run(_ command: LiveCommand) async throws -> (status: LiveStatus, step: Int?) {
    let result = try await off { try $0.run(command) }
    return (result.status, result.step)
  }

  func assertRefused(
    _ command: LiveCommand, code: String, _ message: String, file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    do {
      _ = try await run(command)
      XCTFail("\(command) was not refused", file: file, line: line)
    } catch {
      XCTAssertEqual(
        error as? LiveClientError, .refused(code: code, message: message), file: file,
        line: line)
    }
  }

  /// Reads messages until one's summary satisfies `last`, returning every summary.
  func lines(until last: @escaping @Sendable (String) -> Bool) async throws -> [String] {
    try await off { client in
      var lines: [String] = []
      while let message = try client.receive(timeout: .seconds(10)) {
        let line = Self.summary(message)
        lines.append(line)
        if last(line) { return lines }
      }
      throw LiveClientError.timeout(seconds: 10)
    }
  }

  /// One line per message: its type and what identifies it.
  static func summary(_ message: LiveMessage) -> String {
    switch message {
    case .start(let start): "start \(start.metadata.rootReducer)"
    case .step(let record), .keyframe(let record, _):
      "\(message.type) \(record.step) \(record.origin.storageText) \(record.actionPath) ["
        + record.changedPaths.joined(separator: ", ") + "]"
    case .historyEnd(let step): "historyEnd \(step)"
    case .end(let reason): "end \(reason)"
    case .gap(let after, let dropped, let reason): "gap \(after)+\(dropped) \(reason)"
    case .effectStarted(let effect): "effectStarted \(effect.startedByStep)"
    case .effectEnded(_, _, let outcome, _): "effectEnded \(outcome.storageText)"
    case .status(let status): "status \(status.text)"
    default: message.type
    }
  }
}

/// Polls until a condition holds or 10 seconds passed (the wait bounds a hang; it measures
/// nothing).
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: .seconds(10))
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return true
}
