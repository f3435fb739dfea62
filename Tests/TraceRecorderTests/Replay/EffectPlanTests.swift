import ComposableCore
import TraceKit
import XCTest

@testable import TraceRecorder

/// `EffectPlan`'s cancellation ids: a task started under nested `.cancellable`s carries every
/// id, outermost first, however deep (the first two ids are made at their size, a third is
/// appended), launched now or by a concatenation's task.
final class EffectPlanTests: XCTestCase {
  private func id(_ name: String) -> EffectCancelID {
    EffectCancelID(id: AnyHashableSendable(name), navigationIDPath: NavigationIDPath())
  }

  private func plan(_ effect: Effect<Int>) throws -> EffectPlan<Int> {
    try EffectPlan(effect) { action throws(ReplayError) in .int(Int64(action)) }
  }

  /// The cancellation ids of each task the events start, in order (a concatenation's own,
  /// then its parts').
  private func startedIDs(_ events: [EffectShape.Event]) -> [[EffectCancelID]] {
    events.flatMap { event -> [[EffectCancelID]] in
      guard case .start(let shape) = event else { return [] }
      return [shape.cancelIDs] + startedIDs(shape.events)
    }
  }

  private func task() -> Effect<Int> { .run { _ in } }

  func testATaskCarriesEveryIdItIsNestedIn() throws {
    let plan = try plan(
      .merge(
        task(),
        task().cancellable(id: "a"),
        task().cancellable(id: "b").cancellable(id: "a"),
        task().cancellable(id: "c").cancellable(id: "b").cancellable(id: "a"),
        task().cancellable(id: "d").cancellable(id: "c").cancellable(id: "b")
          .cancellable(id: "a")))
    let (a, b, c, d) = (id("a"), id("b"), id("c"), id("d"))
    XCTAssertEqual(startedIDs(plan.events), [[], [a], [a, b], [a, b, c], [a, b, c, d]])
  }

  func testAConcatenationsPartsCarryItsIdsAndTheirOwn() throws {
    let plan = try plan(
      .concatenate(
        task().cancellable(id: "b"),
        task().cancellable(id: "c").cancellable(id: "b"),
        .send(1)
      ).cancellable(id: "a", cancelInFlight: true))
    let (a, b, c) = (id("a"), id("b"), id("c"))
    XCTAssertEqual(startedIDs(plan.events), [[a], [a, b], [a, b, c]])
    guard case .cancelInFlight(let cancelled) = plan.events.first else {
      return XCTFail("\(plan.events)")
    }
    XCTAssertEqual(cancelled, a)
    guard case .start(let concatenation) = plan.events.last else {
      return XCTFail("\(plan.events)")
    }
    XCTAssertEqual(concatenation.kind, .concatenation)
    XCTAssertEqual(concatenation.sends, [.int(1)])
  }
}
