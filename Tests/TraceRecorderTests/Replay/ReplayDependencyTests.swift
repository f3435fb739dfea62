import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Dice that a player rolls, tags and times: reads of every served dependency, and variants
/// that read them differently, or read the system's randomness and clock directly.
private struct Dice: Reducer {
  struct State: Codable, Equatable, Sendable {
    var rolls: [Int] = []
    var tags: [UUID] = []
    var rolledAt: [Date] = []
    var timed: [Double] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case roll
    case tag
    case time
  }

  enum Variant {
    case recorded
    /// Rolls three dice where the recording rolled one.
    case rollsThree
    /// Tags with one UUID where the recording made two.
    case tagsOnce
    /// Rolls with `Int.random(in:)` instead of the dependency.
    case systemRoll
    /// Rolls with the dependency, and shuffles a list with the system's generator besides.
    case systemShuffle
    /// Tags with `UUID()`.
    case foundationUUID
    /// Stamps rolls with `Date()`.
    case foundationDate
    /// Reads the clock once where the recording read it twice.
    case timesOnce
  }

  var variant = Variant.recorded

  @Dependency(\.withRandomNumberGenerator) var random
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .roll:
      switch variant {
      case .rollsThree:
        for _ in 0..<3 { state.rolls.append(random { Int.random(in: 1...6, using: &$0) }) }
      case .systemRoll:
        state.rolls.append(Int.random(in: 1...6))
      case .systemShuffle:
        state.rolls.append(random { Int.random(in: 1...6, using: &$0) })
        _ = [1, 2, 3].shuffled()
      default:
        state.rolls.append(random { Int.random(in: 1...6, using: &$0) })
      }
      state.rolledAt.append(variant == .foundationDate ? Date() : date.now)
    case .tag:
      switch variant {
      case .tagsOnce: state.tags.append(uuid())
      case .foundationUUID: state.tags += [UUID(), uuid()]
      default: state.tags += [uuid(), uuid()]
      }
    case .time:
      let clock: any Clock<Duration> = self.clock
      state.timed.append(Self.elapsed(on: clock, readingTwice: variant != .timesOnce))
    }
    return .none
  }

  private static func elapsed(on clock: some Clock<Duration>, readingTwice: Bool) -> Double {
    let start = clock.now
    let end = readingTwice ? clock.now : start
    return Double(start.duration(to: end).components.seconds)
  }
}

@MainActor
final class ReplayDependencyTests: XCTestCase {
  private var directory: TemporaryDirectory!
  private var path = ""

  /// Steps 1 roll, 2 tag, 3 time, 4 roll.
  override func setUp() async throws {
    directory = try TemporaryDirectory()
    path = try await TraceRecording.record(Dice(), initialState: Dice.State(), in: directory) {
      store, _ in
      for action in [Dice.Action.roll, .tag, .time, .roll] { store.send(action) }
    }
    XCTAssertEqual(try Replay(trace: path, reducer: Dice()).run(), .matched(steps: 4))
  }

  private func divergence(_ variant: Dice.Variant) throws -> ReplayDivergence? {
    try Replay(trace: path, reducer: Dice(variant: variant)).run().divergence
  }

  func testARandomNumberTheTraceDidNotRecordEndsTheReplayInsteadOfLooping() async throws {
    // Served zeros would make `Int.random(in: 1...6, using:)` reject them for ever.
    let divergence = try divergence(.rollsThree)
    XCTAssertEqual(divergence?.step, 1)
    XCTAssertEqual(
      divergence?.findings.first,
      .dependencyRanOut(key: "random", recorded: 1, read: 3))
    XCTAssertEqual(
      divergence?.findings.first?.description,
      "the reducer asked for more `random` values than the trace recorded for this step "
        + "(read 3, recorded 1); the replay ends here")
  }

  func testFewerReadsThanRecordedAreReportedAtTheirStep() async throws {
    let divergence = try divergence(.tagsOnce)
    XCTAssertEqual(divergence?.step, 2)
    XCTAssertEqual(
      divergence?.findings.first, .dependencyUnread(key: "uuid", recorded: 2, read: 1))
    XCTAssertEqual(
      divergence?.findings.first?.description,
      "the reducer read 1 `uuid` value; the trace recorded 2 `uuid` values for this step")
    XCTAssertEqual(
      try self.divergence(.timesOnce)?.findings,
      [.dependencyUnread(key: "clock", recorded: 2, read: 1)])
  }

  func testTheSystemRandomNumberGeneratorUsedDirectlyIsReportedEveryTime() async throws {
    for _ in 0..<20 {
      let divergence = try divergence(.systemRoll)
      XCTAssertEqual(divergence?.step, 1)
      XCTAssertEqual(
        divergence?.findings.first, .dependencyUnread(key: "random", recorded: 1, read: 0))
      guard case .systemRandomness(let calls, 0)? = divergence?.findings.dropFirst().first else {
        return XCTFail("no system randomness reported: \(String(describing: divergence))")
      }
      XCTAssertGreaterThan(calls, 0)
    }
  }

  func testSystemRandomnessIsReportedEvenWhenItChangesNothingReplayCompares() async throws {
    let divergence = try divergence(.systemShuffle)
    XCTAssertEqual(divergence?.step, 1)
    XCTAssertEqual(divergence?.findings.count, 1)
    XCTAssertEqual(
      divergence?.findings.first?.description,
      "the reducer used the system random number generator 2 times (Int.random(in:), "
        + "shuffled(), randomElement() …) instead of @Dependency(\\.withRandomNumberGenerator) "
        + "or @Dependency(\\.uuid): the trace cannot serve those values")
  }

  func testFoundationUUIDsAreReportedAsSystemRandomness() async throws {
    let divergence = try divergence(.foundationUUID)
    XCTAssertEqual(divergence?.step, 2)
    XCTAssertTrue(
      divergence?.findings.contains { finding in
        if case .systemRandomness = finding { return true }
        return false
      } ?? false, "\(String(describing: divergence))")
  }

  func testADateReadDirectlyDivergesAtItsStep() async throws {
    let divergence = try divergence(.foundationDate)
    XCTAssertEqual(divergence?.step, 1)
    XCTAssertEqual(
      divergence?.findings,
      [
        .dependencyUnread(key: "date", recorded: 1, read: 0),
        .state(changes: 1),
      ])
  }
}
