import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A gallery whose pager loads the next page on every tap, cancelling the load in flight.
/// Each load sends its page, then waits for `release` before it returns, so a test decides
/// when its operation returns.
private struct Gallery: Reducer {
  struct State: Codable, Equatable, Sendable {
    var pager = Pager.State()
  }

  enum Action: Codable, Equatable, Sendable {
    case pager(Pager.Action)
  }

  var pager: Pager

  var body: some ReducerOf<Self> {
    Scope(state: \.pager, action: .galleryPager) { pager }
  }
}

private struct Pager: Reducer {
  struct State: Codable, Equatable, Sendable {
    var requested = 0
    var pages: [Int] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case nextPageTapped
    case pageLoaded(Int)
  }

  enum CancelID: Hashable, Sendable { case load }

  /// Lets a waiting load return, one load a value.
  let release: AsyncStream<Void>
  /// The variant that forgets `cancelInFlight`.
  var cancelInFlight = true

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .nextPageTapped:
      state.requested += 1
      let page = state.requested
      return .run { [release] send in
        await send(.pageLoaded(page))
        for await _ in release { break }
      }
      .cancellable(id: CancelID.load, cancelInFlight: cancelInFlight)
    case .pageLoaded(let page):
      state.pages.append(page)
      return .none
    }
  }
}

extension AnyCasePath where Root == Gallery.Action, Value == Pager.Action {
  fileprivate static var galleryPager: Self {
    .init(Root.pager) { if case let .pager(action) = $0 { action } else { nil } }
  }
}

/// A cancel in flight that reaches a load whose operation has returned, before the store's
/// main actor learned that it did: the store ends the load as finished (the cancel reaches
/// nothing), the trace records it finished after the cancelling step, and replay finds the
/// reducer's cancel consistent with that. `rewind-demo run folder-tab` met this race about
/// once in 300 stopped sessions, and replay reported a cancellation the trace did not record.
@MainActor
final class ReplayFoundFinishedTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory()
  }

  /// Steps: 1 nextPageTapped, 2 pageLoaded(1) (sent by load 1, which then waits), 3
  /// nextPageTapped once load 1's operation returned and before the main actor heard of it,
  /// 4 pageLoaded(2) (load 2, released at once).
  private func recordFoundFinished() async throws -> String {
    let (release, releaseOne) = AsyncStream<Void>.makeStream()
    return try await TraceRecording.record(
      Gallery(pager: Pager(release: release)), initialState: Gallery.State(), in: directory
    ) { store, _ in
      let core = try XCTUnwrap(store.core as? RootCore<RecordingReducer<Gallery>>)
      store.send(.pager(.nextPageTapped))
      await waitUntil("load 1 sent its page") { store.state.pager.pages == [1] }
      releaseOne.yield()
      // Held on the main actor, without awaiting, until load 1's operation returned: the
      // store cannot do its bookkeeping of that end before the next tap.
      let limit = ContinuousClock.now.advanced(by: .seconds(30))
      while !core.effectsInFlight.isEmpty, ContinuousClock.now < limit {}
      XCTAssertTrue(core.effectsInFlight.isEmpty, "load 1 never returned")
      store.send(.pager(.nextPageTapped))
      await waitUntil("load 2 sent its page") { store.state.pager.pages == [1, 2] }
      releaseOne.yield()
      await waitUntil("load 2 ended") { core.pendingOperationCount == 0 }
    }
  }

  func testALoadFoundFinishedByACancelInFlightIsRecordedFinishedAfterTheCancellingStep()
    async throws
  {
    let path = try await recordFoundFinished()
    let effects = try TraceReader(path: path).effects()
    XCTAssertEqual(
      effects.map { [$0.startedByStep, $0.startedAfterStep, $0.endedAfterStep] },
      [[1, 1, 3], [3, 3, 4]])
    XCTAssertEqual(effects.map(\.outcome), [.finished, .finished])
    XCTAssertEqual(effects.map(\.sentSteps), [[2], [4]])
    XCTAssertEqual(effects.map(\.cancelID), ["load", "load"])
  }

  func testReplayFindsTheCancelOfALoadFoundFinishedConsistentWithTheTrace() async throws {
    let path = try await recordFoundFinished()
    let (release, _) = AsyncStream<Void>.makeStream()
    XCTAssertEqual(
      try Replay(trace: path, reducer: Gallery(pager: Pager(release: release))).run(),
      .matched(steps: 4))
    // Without the cancel in flight the tap reaches nothing either: the same trace.
    XCTAssertEqual(
      try Replay(
        trace: path, reducer: Gallery(pager: Pager(release: release, cancelInFlight: false))
      ).run(),
      .matched(steps: 4))
  }
}
