import ComposableCore
import ComposableTesting
import Foundation
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
