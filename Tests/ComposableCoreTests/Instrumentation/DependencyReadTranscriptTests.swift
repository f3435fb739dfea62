import ComposableCore
import ComposableTesting
import Foundation
import Synchronization
import XCTest

/// A reducer reading every non-deterministic dependency, and an effect reading one too.
private struct Reader: Reducer {
  struct State: Equatable, Sendable {
    var ids: [UUID] = []
  }

  enum Action: Equatable, Sendable {
    case read, readInEffect
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .read:
      state.ids.append(uuid())
      _ = date.now
      _ = withRandomNumberGenerator { $0.next() }
      _ = clock.now
      return .none
    case .readInEffect:
      let uuid = self.uuid
      return .run { _ in _ = uuid() }
    }
  }
}

/// A clock with no stored properties, as `ContinuousClock`: every value of it is the same clock.
/// Its `now` moves on by `step` at each read, from `ticks` shared by its values.
private protocol SteppingClock: Clock
where Instant == SteppingInstant, Duration == Swift.Duration {
  /// Counts a read of any value of the clock; returns how many there were.
  static func tick() -> Int
  static var step: Swift.Duration { get }
}

extension SteppingClock {
  var now: SteppingInstant {
    SteppingInstant(offset: Self.step * Self.tick())
  }
  var minimumResolution: Swift.Duration { .zero }
  func sleep(until deadline: SteppingInstant, tolerance: Swift.Duration?) async throws {}
}

private struct SteppingInstant: InstantProtocol {
  var offset: Duration
  func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
  func duration(to other: Self) -> Duration { other.offset - offset }
  static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
}

private struct SecondsClock: SteppingClock {
  static let ticks = Atomic<Int>(0)
  static let step = Duration.seconds(1)
  static func tick() -> Int { ticks.add(1, ordering: .relaxed).newValue }
}

private struct TensClock: SteppingClock {
  static let ticks = Atomic<Int>(0)
  static let step = Duration.seconds(10)
  static func tick() -> Int { ticks.add(1, ordering: .relaxed).newValue }
}

/// Reads the clock twice, then a part of it reads it under another clock.
private struct TwoClocks: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case read }

  struct Part: Reducer {
    @Dependency(\.continuousClock) var clock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      _ = clock.now
      return .none
    }
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { _, _ in
      _ = clock.now
      _ = clock.now
      return .none
    }
    Part().dependency(\.continuousClock, TensClock())
  }
}

/// Reads the clock, then a part of it reads another clock of the same type, then the reducer
/// reads its own clock again.
private struct ClockAndPart: Reducer {
  typealias State = TwoClocks.State
  typealias Action = TwoClocks.Action

  let partClock: TestClock

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { _, _ in
      _ = clock.now
      return .none
    }
    TwoClocks.Part().dependency(\.continuousClock, partClock)
    Reduce { _, _ in
      _ = clock.now
      return .none
    }
  }
}

/// The values a step's reducer read are reported with the step, whatever overrides sit around
/// or inside the instrument; reads from effects are not.
@MainActor
final class DependencyReadTranscriptTests: XCTestCase {
  func testEveryReadOfTheStepIsReportedInsideTheStep() async {
    let clock = TestClock()
    let transcript = Transcript()
    let store = Store(initialState: Reader.State()) {
      Reader().transcribed(into: transcript)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 100))
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(seed: 7)
      $0.continuousClock = clock
    }
    store.send(.read)
    await clock.advance(by: .seconds(2))
    store.send(.read)
    await store.send(.readInEffect).finish()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .read
        read uuid 00000000-0000-0000-0000-000000000000
        read date 100.0
        read random 7191089600892374487
        read clock 0.0 seconds
      end of step 1
      step 2 from user: .read
        read uuid 00000000-0000-0000-0000-000000000001
        read date 100.0
        read random 309689372594955804
        read clock 2.0 seconds
      end of step 2
      step 3 from user: .readInEffect
      end of step 3
      E1 started by step 3: run
      E1 finished
      """)
  }

  func testReadsAreReportedWhereverTheOverridesSit() {
    let outside = Transcript()
    _ = Store(initialState: Reader.State()) {
      Reader().transcribed(into: outside).dependency(\.uuid, .incrementing)
        .dependency(\.date, .constant(Date(timeIntervalSinceReferenceDate: 0)))
        .dependency(\.withRandomNumberGenerator, WithRandomNumberGenerator(seed: 0))
        .dependency(\.continuousClock, TestClock())
    }
    .send(.read)
    let inside = Transcript()
    _ = Store(initialState: Reader.State()) {
      Reader().dependency(\.uuid, .incrementing)
        .dependency(\.date, .constant(Date(timeIntervalSinceReferenceDate: 0)))
        .dependency(\.withRandomNumberGenerator, WithRandomNumberGenerator(seed: 0))
        .dependency(\.continuousClock, TestClock())
        .transcribed(into: inside)
    }
    .send(.read)
    XCTAssertEqual(outside.lines, inside.lines)
    XCTAssertEqual(
      inside.lines.filter { $0.hasPrefix("  read") }.count, 4, inside.text)
  }

  func testEachReadOfAStatelessClockIsReportedFromItsOwnTypesFirstRead() {
    SecondsClock.ticks.store(0, ordering: .relaxed)
    TensClock.ticks.store(0, ordering: .relaxed)
    let transcript = Transcript()
    let store = Store(initialState: TwoClocks.State()) {
      TwoClocks().transcribed(into: transcript)
    } withDependencies: {
      $0.continuousClock = SecondsClock()
    }
    store.send(.read)
    store.send(.read)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .read
        read clock 0.0 seconds
        read clock 1.0 seconds
        read clock 0.0 seconds
      end of step 1
      step 2 from user: .read
        read clock 2.0 seconds
        read clock 3.0 seconds
        read clock 10.0 seconds
      end of step 2
      """)
  }

  func testTwoClocksOfOneTypeAreEachReportedWithTheirOwnTime() async {
    let clock = TestClock()
    let partClock = TestClock(now: OffsetInstant().advanced(by: .seconds(5)))
    let transcript = Transcript()
    let store = Store(initialState: ClockAndPart.State()) {
      ClockAndPart(partClock: partClock).transcribed(into: transcript)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.read)
    await clock.advance(by: .seconds(1))
    store.send(.read)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .read
        read clock 0.0 seconds
        read clock 5.0 seconds
        read clock 0.0 seconds
      end of step 1
      step 2 from user: .read
        read clock 1.0 seconds
        read clock 5.0 seconds
        read clock 1.0 seconds
      end of step 2
      """)
  }

  func testAGeneratorBuiltOnAnotherReportsOnce() {
    let transcript = Transcript()
    let store = Store(initialState: Reader.State()) {
      Reader()
        .transformDependency(\.uuid) { uuid in
          let base = uuid
          uuid = UUIDGenerator { UUID(uuidString: "AAAAAAAA" + base().uuidString.dropFirst(8))! }
        }
        .dependency(\.date, .constant(Date(timeIntervalSinceReferenceDate: 0)))
        .dependency(\.withRandomNumberGenerator, WithRandomNumberGenerator(seed: 0))
        .dependency(\.continuousClock, TestClock())
        .transcribed(into: transcript)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.read)
    XCTAssertEqual(
      transcript.lines.filter { $0.contains("uuid") },
      ["  read uuid AAAAAAAA-0000-0000-0000-000000000000"])
  }
}
