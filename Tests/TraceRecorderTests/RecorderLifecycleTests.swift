import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A feature whose every action starts an effect that ends at once.
private struct Pinger: Reducer {
  struct State: Codable, Equatable, Sendable {
    var pings = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case ping
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.pings += 1
    return .run { _ in }
  }
}

/// A parent that scopes a recorded child: a misplaced recorder.
private struct Holder: Reducer {
  struct State: Codable, Equatable, Sendable {
    var child = CounterV1.State()
  }

  enum Action: Codable, Equatable, Sendable {
    case child(CounterV1.Action)
  }

  let recorder: Recorder

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .holderChild) { CounterV1().recording(to: recorder) }
  }
}

extension AnyCasePath where Root == Holder.Action, Value == CounterV1.Action {
  fileprivate static var holderChild: Self {
    .init(Root.child) { if case let .child(action) = $0 { action } else { nil } }
  }
}

/// The Recorder's life: when the trace starts, how it ends, what is refused, and the queue's
/// bound.
@MainActor
final class RecorderLifecycleTests: XCTestCase {
  func testStepZeroIsWrittenWhenTheStoreIsCreated() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("created.rewind")
    let recorder = try Recorder(path: path)
    let store = Store(initialState: CounterV1.State(count: 41)) {
      CounterV1().recording(to: recorder)
    }
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().stepCount, 0)
    XCTAssertEqual(try reader.info().isComplete, true)
    XCTAssertEqual(try reader.state(at: 0), .object([TraceField("count", .int(41))]))
    withExtendedLifetime(store) {}
  }

  func testFinishHandsOverWithoutWaitingForTheWriter() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("handover.rewind")
    let gate = Gate()
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .blockProducer, queueCapacity: 4096))
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    for _ in 1...3 { store.send(.increment) }
    // The writer is held: a finish that waited for it would never return.
    recorder.finish()
    XCTAssertEqual(recorder.queuedEvents, 4)
    gate.open()
    await recorder.waitUntilFinished()
    XCTAssertEqual(try TraceReader(path: path).info().stepCount, 3)
    XCTAssertEqual(try TraceReader(path: path).info().isComplete, true)
  }

  func testADroppedRecorderFinishesItselfAndLeavesNoWriterThread() async throws {
    let directory = try TemporaryDirectory()
    let writersBefore = WriterThreads.now
    let threadsBefore = ProcessThreads.count
    for index in 0..<100 {
      let recorder = try Recorder(path: directory.path("\(index).rewind"))
      let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
      store.send(.increment)
    }
    // Each dropped recorder joined its threads; for a moment after a join returns the kernel
    // still lists the thread that ended, so the outcome is waited for, with a bound.
    let ended = await eventually { WriterThreads.now == writersBefore }
    XCTAssertTrue(ended, "writer threads left: \(WriterThreads.now), before: \(writersBefore)")
    XCTAssertLessThanOrEqual(ProcessThreads.count, threadsBefore + 2, "no thread piles up")
    for index in [0, 99] {
      let info = try TraceReader(path: directory.path("\(index).rewind")).info()
      XCTAssertEqual(info.stepCount, 1)
      XCTAssertEqual(info.isComplete, true)
    }
  }

  func testARecorderGivenToASecondStoreRefusesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("one.rewind")
    let recorder = try Recorder(path: path)
    let first = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    let (second, issues) = withIssueCollection {
      Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    }
    first.send(.increment)
    second.send(.decrement)
    await recorder.waitUntilFinished()
    XCTAssertEqual(
      issues.map(\.description),
      [
        """
        TraceRecorderTests/RecorderLifecycleTests.swift:113: A Recorder records one store: \
        the recorder writing "\(path)" already records the store of "recording(to:)" at \
        "TraceRecorderTests/RecorderLifecycleTests.swift:111", so the store of \
        "recording(to:)" at "TraceRecorderTests/RecorderLifecycleTests.swift:113" is not \
        recorded. Give each store its own Recorder.
        """
      ])
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.rows(from: 1, to: 9).map(\.actionPath), ["increment"])
  }

  func testAFinishedRecorderRefusesAStore() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("finished.rewind")
    let recorder = try Recorder(path: path)
    recorder.finish()
    let (store, issues) = withIssueCollection {
      Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    }
    store.send(.increment)
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        The Recorder writing "\(path)" was finished before the store of "recording(to:)" at \
        "TraceRecorderTests/RecorderLifecycleTests.swift:139" was created, so that store is \
        not recorded. Give it a new Recorder.
        """
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testARecorderInsideAScopeIsReportedAndRecordsNothing() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("scoped.rewind")
    let recorder = try Recorder(path: path)
    let (store, issues) = withIssueCollection {
      Store(initialState: Holder.State()) { Holder(recorder: recorder) }
    }
    store.send(.child(.increment))
    await recorder.waitUntilFinished()
    XCTAssertEqual(store.child.count, 1)
    XCTAssertEqual(
      issues.map(\.description),
      [
        """
        TraceRecorderTests/RecorderLifecycleTests.swift:39: A "recording(to:)" at \
        "TraceRecorderTests/RecorderLifecycleTests.swift:39" records \
        "TraceRecorderTests.CounterV1.State", a part of a store whose state is \
        "TraceRecorderTests.Holder.State": a Recorder records the whole state of a store, so \
        it must wrap the store's root reducer (it may sit under ".dependency(…)" or in \
        "CombineReducers", not inside a "Scope"). Nothing is recorded.
        """
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testTheBlockingQueueBoundHoldsForEffectEventsToo() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("bound.rewind")
    let recorder = try Recorder(path: path, configuration: .init(queueCapacity: 2))
    let store = Store(initialState: Pinger.State()) { Pinger().recording(to: recorder) }
    for _ in 1...300 { await store.send(.ping).finish() }
    await recorder.waitUntilFinished()
    XCTAssertLessThanOrEqual(recorder.queueHighWater, 2)
    let reader = try TraceReader(path: path)
    let effects = try reader.effects()
    XCTAssertEqual(try reader.info().stepCount, 300)
    XCTAssertEqual(effects.count, 300)
    XCTAssertEqual(Set(effects.map(\.outcome)), [.finished])
    XCTAssertEqual(Set(effects.map(\.startedByStep)), Set(1...300))
  }

  func testTheDroppingQueueKeepsTheEffectEventsOfRecordedStepsAndDropsTheRest() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("drop.rewind")
    let gate = Gate()
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .dropAndRecordGap, queueCapacity: 4))
    let store = Store(initialState: Pinger.State()) { Pinger().recording(to: recorder) }
    // Held writer, room for 4: step 0, step 1 and its effect, step 2; step 2's effect waits;
    // step 3 finds it waiting and is dropped, with its effect.
    let tasks = (1...3).map { _ in store.send(.ping) }
    for task in tasks { await task.finish() }
    XCTAssertEqual(recorder.queuedEvents, 4)
    gate.open()
    await recorder.waitUntilFinished()
    XCTAssertEqual(recorder.queueHighWater, 4)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.rows(from: 0, to: 9).map(\.step), [0, 1, 2])
    XCTAssertEqual(try reader.gaps().map { "\($0.afterStep)+\($0.dropped)" }, ["2+1"])
    let effects = try reader.effects().sorted { $0.startedByStep < $1.startedByStep }
    XCTAssertEqual(effects.map(\.startedByStep), [1, 2])
    XCTAssertEqual(effects.map(\.outcome), [.finished, .finished])
  }

  func testAnEffectOfADroppedStepHasNoRecordAndTheStepItSendsIsRecordedWithoutASender()
    async throws
  {
    let directory = try TemporaryDirectory()
    let path = directory.path("dropped-sender.rewind")
    let gate = Gate()
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .dropAndRecordGap, queueCapacity: 4))
    let (release, releasing) = AsyncStream<Void>.makeStream()
    let store = Store(initialState: Relay.State()) {
      Relay(release: release).recording(to: recorder)
    }
    // Held writer, room for 4: step 0, steps 1-3. Step 4 is dropped, and with it the start of
    // its effect, which later sends step 5 once the writer has taken everything.
    for _ in 1...3 { store.send(.tick) }
    let started = store.send(.start)
    XCTAssertEqual(recorder.queuedEvents, 4)
    gate.open()
    while recorder.queuedEvents > 0 { try await Task.sleep(for: .milliseconds(1)) }
    releasing.yield()
    await started.finish()
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    XCTAssertEqual(store.replies, 1)
    let reader = try TraceReader(path: path)
    let rows = try reader.rows(from: 0, to: 9)
    XCTAssertEqual(rows.map(\.step), [0, 1, 2, 3, 5])
    guard case .effect = rows[4].origin else {
      return XCTFail("step 5's origin: \(rows[4].origin)")
    }
    XCTAssertEqual(try reader.gaps().map { "\($0.afterStep)+\($0.dropped)" }, ["3+1"])
    XCTAssertEqual(try reader.effects().count, 0)
  }

  func testARecordingToAFileWritesOnTwoThreadsAndOneInMemoryOnOne() async throws {
    let directory = try TemporaryDirectory()
    let before = WriterThreads.now
    for path in [directory.path("file.rewind"), nil] {
      // The writer waits before its second batch: step 0 is written, the trace is open.
      let tookStart = DispatchSemaphore(value: 0)
      let gate = Gate()
      let takes = LockedBox(0)
      var configuration = Recorder.Configuration()
      configuration.writerWillTake = {
        takes.mutate { $0 += 1 }
        let take = takes.value
        if take == 2 {
          tookStart.signal()
          gate.wait()
        }
      }
      do {
        let recorder =
          try path.map { try Recorder(path: $0, configuration: configuration) }
          ?? Recorder(configuration: configuration)
        let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
        tookStart.wait()
        XCTAssertEqual(
          WriterThreads.now,
          WriterThreads(
            encoding: before.encoding + 1, trace: before.trace + (path == nil ? 0 : 1)))
        // The writer's threads run below the app's (nice 10); the app's own are untouched.
        let writers = ["rewind-writer", "rewind-writer-2"].flatMap(ProcessThreads.ids(named:))
        XCTAssertEqual(Set(writers.map(ProcessThreads.nice(of:))), [10])
        XCTAssertEqual(ProcessThreads.nice(of: ProcessThreads.currentID), 0)
        gate.open()
        store.send(.increment)
        await recorder.waitUntilFinished()
        // Joined before the recording finished; the kernel may list it a moment longer.
        let stageEnded = await eventually { WriterThreads.now.trace == before.trace }
        XCTAssertTrue(stageEnded, "the trace stage outlived the recording")
      }
      let ended = await eventually { WriterThreads.now == before }
      XCTAssertTrue(ended, "writer threads left: \(WriterThreads.now), before: \(before)")
    }
    let reader = try TraceReader(path: directory.path("file.rewind"))
    XCTAssertEqual(try reader.info().stepCount, 1)
    XCTAssertEqual(try reader.info().isComplete, true)
  }

  /// Awaited, a finished recording has its writer thread joined when the wait returns, while
  /// the store and the Recorder live on (a finished, unjoined thread kept its stack until the
  /// Recorder's `deinit`): to a file and in memory.
  func testWaitingForARecordingJoinsItsWriterWhileTheRecorderLives() async throws {
    let directory = try TemporaryDirectory()
    let before = WriterThreads.now
    for path in [directory.path("awaited.rewind"), nil] {
      let recorder =
        try path.map { try Recorder(path: $0) } ?? Recorder(configuration: .init())
      let store = Store(initialState: Pinger.State()) { Pinger().recording(to: recorder) }
      await store.send(.ping).finish()
      XCTAssertFalse(recorder.isWriterJoined)
      await recorder.waitUntilFinished()
      XCTAssertTrue(recorder.isWriterJoined)
      // Joined; the kernel may list the thread that ended a moment longer.
      let ended = await eventually { WriterThreads.now == before }
      XCTAssertTrue(ended, "writer threads left: \(WriterThreads.now), before: \(before)")
      withExtendedLifetime((recorder, store)) {}
    }
    XCTAssertEqual(try TraceReader(path: directory.path("awaited.rewind")).info().stepCount, 1)
  }

  /// `finish()` alone (nobody waits) has the writer joined once it ended.
  func testAFinishedRecordingNobodyWaitsForHasItsWriterJoined() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("unawaited.rewind")
    let before = WriterThreads.now
    let recorder = try Recorder(path: path)
    let store = Store(initialState: Pinger.State()) { Pinger().recording(to: recorder) }
    await store.send(.ping).finish()
    recorder.finish()
    let joined = await eventually { recorder.isWriterJoined }
    XCTAssertTrue(joined, "the finished writer was not joined")
    let ended = await eventually { WriterThreads.now == before }
    XCTAssertTrue(ended, "writer threads left: \(WriterThreads.now), before: \(before)")
    XCTAssertEqual(try TraceReader(path: path).info().isComplete, true)
    withExtendedLifetime((recorder, store)) {}
  }

  /// Under the drop policy, a recording that dropped steps has its writer joined as it
  /// finishes (its closing event waited behind a full queue).
  func testARecordingThatDroppedStepsHasItsWriterJoinedWhenItFinishes() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("dropped.rewind")
    let before = WriterThreads.now
    let gate = Gate()
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .dropAndRecordGap, queueCapacity: 2))
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    for _ in 1...5 { store.send(.increment) }
    recorder.finish()
    XCTAssertFalse(recorder.isWriterJoined)
    gate.open()
    await recorder.waitUntilFinished()
    XCTAssertTrue(recorder.isWriterJoined)
    let ended = await eventually { WriterThreads.now == before }
    XCTAssertTrue(ended, "writer threads left: \(WriterThreads.now), before: \(before)")
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.gaps().map { "\($0.afterStep)+\($0.dropped)" }, ["1+4"])
    XCTAssertEqual(try reader.info().isComplete, true)
    withExtendedLifetime(store) {}
  }

  /// A write error (here: the trace could not be created) stops the recording, and the writer
  /// keeps taking events until the recording finishes; finishing it then joins the writer as
  /// it does without an error (`RecorderFaultTests` checks a later step's error too).
  func testARecordingStoppedByAWriteErrorHasItsWriterJoinedWhenItFinishes() async throws {
    let directory = try TemporaryDirectory()
    let before = WriterThreads.now
    let taken = directory.path("taken.rewind")
    _ = FileManager.default.createFile(atPath: taken, contents: Data("not a trace".utf8))
    let recorder = try Recorder(path: taken)
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    let issues = await collectingIssues {
      store.send(.increment)
      await waitUntil("the recorder failed") { recorder.error != nil }
      store.send(.increment)
      await recorder.waitUntilFinished()
    }
    XCTAssertEqual(issues.count, 1, "\(issues)")
    XCTAssertTrue(recorder.isWriterJoined)
    let ended = await eventually { WriterThreads.now == before }
    XCTAssertTrue(ended, "writer threads left: \(WriterThreads.now), before: \(before)")
    XCTAssertEqual(store.state.count, 2)
    withExtendedLifetime(store) {}
  }
}

/// A feature whose `.start` effect waits until the test releases it, then sends `.reply`.
private struct Relay: Reducer {
  struct State: Codable, Equatable, Sendable {
    var ticks = 0
    var replies = 0
  }

  enum Action: Codable, Equatable, Sendable {
    case tick
    case start
    case reply
  }

  let release: AsyncStream<Void>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tick:
      state.ticks += 1
      return .none
    case .start:
      return .run { [release] send in
        for await _ in release { break }
        await send(.reply)
      }
    case .reply:
      state.replies += 1
      return .none
    }
  }
}

/// The recording threads of this process: a recording to a file has one of each, one in
/// memory an encoding thread only.
private struct WriterThreads: Equatable {
  /// `rewind-writer`: encodes, diffs and hashes (`StepWriter`).
  var encoding: Int
  /// `rewind-writer-2`: writes the trace file (`TraceStage`).
  var trace: Int

  static var now: Self {
    Self(
      encoding: ProcessThreads.named("rewind-writer"),
      trace: ProcessThreads.named("rewind-writer-2"))
  }
}
