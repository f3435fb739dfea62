import ComposableCore
import ComposableTesting
import Dispatch
import Foundation
import Locking
import Synchronization
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// Collects reported issues (installed for the tests that expect a report).
final class CollectingReporter: IssueReporter {
  let issues = Lock<[String]>([])

  func report(_ issue: ReportedIssue) {
    issues.withLock { $0.append(issue.message) }
  }
}

/// Opens once, then lets every later caller through.
final class Gate: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  private let opened = Atomic<Bool>(false)

  func wait() {
    if opened.load(ordering: .acquiring) { return }
    semaphore.wait()
    semaphore.signal()
  }

  func open() {
    opened.store(true, ordering: .releasing)
    semaphore.signal()
  }
}

extension Recorder.Configuration {
  /// A configuration whose writer waits at `gate` before it takes each batch: the queue fills
  /// deterministically until the test opens the gate.
  static func heldWriter(
    at gate: Gate, overflowPolicy: Recorder.OverflowPolicy, queueCapacity: Int
  ) -> Self {
    var configuration = Self(overflowPolicy: overflowPolicy, queueCapacity: queueCapacity)
    configuration.writerWillTake = { gate.wait() }
    return configuration
  }
}

/// A counter whose state cannot be encoded once its count reaches `failsAt`.
private struct Brittle: Reducer {
  struct State: Encodable, Equatable, Sendable {
    var count = 0
    var failsAt = 3

    enum CodingKeys: String, CodingKey {
      case count, failsAt
    }

    func encode(to encoder: any Encoder) throws {
      guard count < failsAt else {
        throw EncodingError.invalidValue(
          count, .init(codingPath: [], debugDescription: "count \(count) is not encodable"))
      }
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(count, forKey: .count)
      try container.encode(failsAt, forKey: .failsAt)
    }
  }

  enum Action: Codable, Equatable, Sendable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

@MainActor
final class RecorderFaultTests: XCTestCase {
  func testDropPolicyWritesAGapWithTheNumberOfDroppedSteps() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("drop.rewind")
    let gate = Gate()
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .dropAndRecordGap, queueCapacity: 4))
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    // Queued while the writer is held: step 0's start event, steps 1, 2, 3 (capacity 4).
    for _ in 1...3 { store.send(.increment) }
    // Dropped: steps 4 to 8.
    for _ in 4...8 { store.send(.increment) }
    gate.open()
    await waitUntil("the writer took the queue") { recorder.queuedEvents == 0 }
    store.send(.decrement)  // step 9, written as a keyframe after the gap
    await recorder.waitUntilFinished()
    XCTAssertEqual(store.state.count, 7)
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.rows(from: 0, to: 20).map(\.step), [0, 1, 2, 3, 9])
    XCTAssertEqual(try reader.gaps().map { "\($0.afterStep)+\($0.dropped)" }, ["3+5"])
    XCTAssertEqual(try reader.state(at: 9), .object([TraceField("count", .int(7))]))
    let info = try reader.info()
    XCTAssertEqual([info.sentSteps, info.recordedSteps, info.droppedSteps], [9, 4, 5])
  }

  func testDropPolicyRecordsTrailingDroppedStepsWhenFinishing() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("drop-end.rewind")
    let gate = Gate()
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .dropAndRecordGap, queueCapacity: 2))
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    for _ in 1...4 { store.send(.increment) }  // step 1 queued, 2 to 4 dropped
    gate.open()
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.rows(from: 0, to: 20).map(\.step), [0, 1])
    XCTAssertEqual(try reader.gaps().map { "\($0.afterStep)+\($0.dropped)" }, ["1+3"])
    let info = try reader.info()
    XCTAssertEqual([info.stepCount, info.sentSteps, info.recordedSteps], [1, 4, 1])
  }

  func testBlockPolicyNeverLosesAStepWhenTheWriterFallsBehind() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("block.rewind")
    let recorder = try Recorder(path: path, configuration: .init(queueCapacity: 2))
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    for _ in 1...500 { store.send(.increment) }
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().stepCount, 500)
    XCTAssertEqual(try reader.gaps().count, 0)
    XCTAssertEqual(try reader.state(at: 500), .object([TraceField("count", .int(500))]))
  }

  func testFailureToCreateTheTraceReportsOnceAndTheFeatureKeepsRunning() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("taken.rewind")
    _ = FileManager.default.createFile(atPath: path, contents: Data("not a trace".utf8))
    let recorder = try Recorder(path: path)
    let store = Store(initialState: CounterV1.State()) { CounterV1().recording(to: recorder) }
    let issues = await collectingIssues {
      store.send(.increment)
      await waitUntil("the recorder failed") { recorder.error != nil }
      for _ in 1...10 { store.send(.increment) }
      await recorder.waitUntilFinished()
    }
    XCTAssertEqual(store.state.count, 11)
    // The trace stage's thread tried to create the file: nothing was committed.
    XCTAssertNil(recorder.error?.lastCommittedStep)
    XCTAssertEqual(recorder.error?.message, "\(path): a file already exists at this path")
    XCTAssertEqual(
      issues,
      [
        "Recording to \(path) stopped: \(path): a file already exists at this path. The app "
          + "keeps running unrecorded."
      ])
    XCTAssertEqual(
      try String(contentsOfFile: path, encoding: .utf8), "not a trace",
      "the existing file is left alone")
  }

  func testAStateThatCannotBeEncodedStopsTheRecordingAtTheTraceStagesLastCommit() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("brittle.rewind")
    let gate = Gate()
    // Held: step 0 and steps 1…4 reach the writer in one batch, so no commit comes between.
    let recorder = try Recorder(
      path: path,
      configuration: .heldWriter(at: gate, overflowPolicy: .blockProducer, queueCapacity: 64))
    let store = Store(initialState: Brittle.State()) { Brittle().recording(to: recorder) }
    let issues = await collectingIssues {
      for _ in 1...4 { store.send(.increment) }
      gate.open()
      await recorder.waitUntilFinished()
    }
    XCTAssertEqual(store.state.count, 4)
    XCTAssertTrue(recorder.isWriterJoined, "the writer that failed was joined as it finished")
    XCTAssertEqual(recorder.error?.lastCommittedStep, 0)
    XCTAssertEqual(issues.count, 1, "\(issues)")
    XCTAssertTrue(
      issues.first?.hasPrefix(
        "Recording to \(path) stopped: step 3 could not be encoded: ") == true, "\(issues)")
    XCTAssertTrue(
      issues.first?.hasSuffix(
        "The trace holds steps 0…0 (its last commit); the app keeps running unrecorded.")
        == true, "\(issues)")
    // The steps handed to the trace before the failure were kept when the trace was dropped.
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().stepCount, 2)
    XCTAssertEqual(try reader.info().isComplete, false)
    XCTAssertEqual(
      try reader.state(at: 2),
      .object([TraceField("count", .int(2)), TraceField("failsAt", .int(3))]))
  }
}
