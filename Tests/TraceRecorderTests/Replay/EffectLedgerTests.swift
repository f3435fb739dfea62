import ComposableCore
import Foundation
import TraceKit
import XCTest

@testable import TraceRecorder

/// `EffectLedger.cancellationFindings` at a step where one effect runs under `search`: the
/// reducer cancelling it for the reason the trace recorded is nothing to report; another
/// reason, a cancel the trace did not record, or none where it recorded one are each reported.
final class EffectLedgerTests: XCTestCase {
  private let search = EffectCancelID(
    id: AnyHashableSendable("search"), navigationIDPath: NavigationIDPath())

  /// A ledger whose trace recorded one `.run` under `search`, started by step 1 and ended as
  /// `outcome` (after step `endedAfterStep`); the reducer started it at step 1.
  private func ledger(_ outcome: EffectOutcome, endedAfterStep: Int? = nil)
    -> (EffectLedger, ReplayEffect)
  {
    let record = EffectRecord(
      id: UUID(), startedByStep: 1, cancelID: "search", outcome: outcome, kind: "run",
      startedAfterStep: 0, endedAfterStep: endedAfterStep)
    let effects = RecordedEffects([record])
    var ledger = EffectLedger(effects)
    let shape = EffectShape(kind: .run, cancelIDs: [search], location: nil, events: [], sends: [])
    XCTAssertEqual(ledger.launch([.start(shape)], at: 1), [])
    XCTAssertEqual(ledger.cancellationFindings(at: 1), [])
    return (ledger, effects.described(0))
  }

  func testTheOneEffectCancelledForTheRecordedReasonIsNothingToReport() {
    var (ledger, _) = ledger(.cancelled(reason: "cancel", byStep: 2))
    ledger.cancel(search, cause: .cancel(search), at: 2)
    XCTAssertEqual(ledger.cancellationFindings(at: 2), [])
  }

  func testTheOneEffectCancelledForAnotherReasonIsReported() {
    var (ledger, effect) = ledger(.cancelled(reason: "cancelInFlight", byStep: 2))
    ledger.cancel(search, cause: .cancel(search), at: 2)
    XCTAssertEqual(
      ledger.cancellationFindings(at: 2),
      [.cancellationCause(effect, recorded: "cancelInFlight", replayed: "cancel")])
  }

  func testACancelTheTraceDidNotRecordIsReported() {
    var (ledger, effect) = ledger(.running)
    ledger.cancel(search, cause: .cancel(search), at: 2)
    XCTAssertEqual(
      ledger.cancellationFindings(at: 2), [.cancellationUnexpected(effect, reason: "cancel")])
  }

  /// The store's cancel at step 2's launch found the operation returned: it recorded the
  /// effect finished after step 2, and the reducer's cancel there is consistent with that.
  func testACancelAtTheStepAfterWhichTheEffectFinishedIsNothingToReport() {
    var (ledger, _) = ledger(.finished, endedAfterStep: 2)
    ledger.cancel(search, cause: .cancelInFlight(search), at: 2)
    XCTAssertEqual(ledger.cancellationFindings(at: 2), [])
    // Found finished, it is gone: a later cancel reaches nothing either.
    ledger.cancel(search, cause: .cancel(search), at: 3)
    XCTAssertEqual(ledger.cancellationFindings(at: 3), [])
  }

  /// An effect the trace records finishing after step 3 was running at step 2: a cancel
  /// there would have cancelled it.
  func testACancelOfAnEffectThatFinishedLaterIsReported() {
    var (ledger, effect) = ledger(.finished, endedAfterStep: 3)
    ledger.cancel(search, cause: .cancelInFlight(search), at: 2)
    XCTAssertEqual(
      ledger.cancellationFindings(at: 2),
      [.cancellationUnexpected(effect, reason: "cancelInFlight")])
  }

  func testARecordedCancelTheReducerDidNotAskForIsReported() {
    var (ledger, effect) = ledger(.cancelled(reason: "cancel", byStep: 2))
    XCTAssertEqual(
      ledger.cancellationFindings(at: 2), [.cancellationMissing(effect, reason: "cancel")])
    // At a step that recorded nothing, nothing is missing.
    XCTAssertEqual(ledger.cancellationFindings(at: 3), [])
  }

  /// Two tasks under different ids, launched at one step: each is registered under its own
  /// key (the ledger keeps the list of ids it looked up last), so cancelling one reaches only
  /// it.
  func testTasksUnderDifferentIdsAreRegisteredEachUnderItsOwn() {
    let load = EffectCancelID(id: AnyHashableSendable("load"), navigationIDPath: NavigationIDPath())
    let records = [
      EffectRecord(
        id: UUID(), startedByStep: 1, cancelID: "search",
        outcome: .cancelled(reason: "cancel", byStep: 2), kind: "run", startedAfterStep: 0),
      EffectRecord(
        id: UUID(), startedByStep: 1, cancelID: "load", outcome: .running, kind: "run",
        startedAfterStep: 0),
    ]
    let effects = RecordedEffects(records)
    var ledger = EffectLedger(effects)
    let searching = EffectShape(
      kind: .run, cancelIDs: [search], location: nil, events: [], sends: [])
    let loading = EffectShape(kind: .run, cancelIDs: [load], location: nil, events: [], sends: [])
    XCTAssertEqual(ledger.launch([.start(searching), .start(loading)], at: 1), [])
    XCTAssertEqual(ledger.cancellationFindings(at: 1), [])
    ledger.cancel(search, cause: .cancel(search), at: 2)
    XCTAssertEqual(ledger.cancellationFindings(at: 2), [])
    ledger.cancel(load, cause: .cancel(load), at: 3)
    XCTAssertEqual(
      ledger.cancellationFindings(at: 3),
      [.cancellationUnexpected(effects.described(1), reason: "cancel")])
    // Launched in the other order, the tasks are not those the trace recorded.
    var swapped = EffectLedger(effects)
    XCTAssertEqual(
      swapped.launch([.start(loading), .start(searching)], at: 1),
      [
        .effectsStarted(
          recorded: [effects.described(0), effects.described(1)],
          replayed: [
            ReplayEffect(kind: "run", cancelID: "load", startedByStep: 1, location: nil),
            ReplayEffect(kind: "run", cancelID: "search", startedByStep: 1, location: nil),
          ])
      ])
  }

  /// A key whose effects were all cancelled stays registered, empty: a cancel under it then
  /// reaches nothing, and the next effect tracked under it is the one a later cancel reaches.
  func testAKeyEmptiedByACancelReachesTheNextEffectTrackedUnderIt() {
    let records = [
      EffectRecord(
        id: UUID(), startedByStep: 1, cancelID: "search",
        outcome: .cancelled(reason: "cancelInFlight", byStep: 2), kind: "run",
        startedAfterStep: 0),
      EffectRecord(
        id: UUID(), startedByStep: 2, cancelID: "search",
        outcome: .cancelled(reason: "cancel", byStep: 4), kind: "run", startedAfterStep: 1),
    ]
    let effects = RecordedEffects(records)
    var ledger = EffectLedger(effects)
    let searching = EffectShape(
      kind: .run, cancelIDs: [search], location: nil, events: [], sends: [])
    XCTAssertEqual(ledger.launch([.start(searching)], at: 1), [])
    XCTAssertEqual(ledger.cancellationFindings(at: 1), [])
    XCTAssertEqual(ledger.launch([.cancelInFlight(search), .start(searching)], at: 2), [])
    XCTAssertEqual(ledger.cancellationFindings(at: 2), [])
    ledger.cancel(search, cause: .cancel(search), at: 4)
    XCTAssertEqual(ledger.cancellationFindings(at: 4), [])
    // Emptied again: a cancel under it reaches nothing.
    ledger.cancel(search, cause: .cancel(search), at: 5)
    XCTAssertEqual(ledger.cancellationFindings(at: 5), [])
  }
}
