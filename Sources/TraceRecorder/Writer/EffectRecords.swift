import ComposableCore
import Foundation
import TraceKit

/// Makes the trace's record of each effect started: its columns from what the core reported,
/// the cancellation ids described (once each: describing an `AnyHashable` id is slow).
///
/// The trace stage makes the records of the trace, so the first stage (`StepWriter`) hands it
/// the effect as captured; the first stage makes its own only for live attach's history.
///
/// ```swift
/// var records = EffectRecords()
/// let record = records.record(of: captured)  // record.cancelID: "search, debounce"
/// ```
struct EffectRecords {
  /// The text of each cancel id met.
  private var cancelIDTexts: [EffectCancelID: String] = [:]
  /// The column of each list of two or more ids met: such an effect (a row's, under its
  /// `forEach` and the id it was given) starts again and again with an equal list, whose
  /// column is found by one look-up instead of one per id, an array and a join.
  private var listTexts: [[EffectCancelID]: String] = [:]

  mutating func record(of effect: CapturedEffect) -> EffectRecord {
    EffectRecord(
      id: effect.id, startedByStep: effect.startedByStep,
      cancelID: cancelIDText(effect.cancelIDs),
      file: effect.location?.fileID, line: effect.location.map { Int($0.line) },
      startNanos: effect.startNanos, kind: effect.kind.rawValue, parentID: effect.parent,
      startedAfterStep: effect.startedAfterStep)
  }

  /// The `cancel_id` column: the ids' texts joined by ", ", nil when there are none. An
  /// effect with one id (about half of the app's) has that id's text as the column: no array,
  /// no new string.
  private mutating func cancelIDText(_ cancelIDs: [EffectCancelID]) -> String? {
    switch cancelIDs.count {
    case 0: return nil
    case 1: return text(of: cancelIDs[0])
    default:
      if let known = listTexts[cancelIDs] { return known }
      let joined = cancelIDs.map { text(of: $0) }.joined(separator: ", ")
      // Bounded as `cancelIDTexts` is.
      if listTexts.count >= 4_096 { listTexts.removeAll(keepingCapacity: true) }
      listTexts[cancelIDs] = joined
      return joined
    }
  }

  private mutating func text(of cancelID: EffectCancelID) -> String {
    if let text = cancelIDTexts[cancelID] { return text }
    let text = cancelID.description
    // Bounded: ids made of values (a row's id, a query) can be many.
    if cancelIDTexts.count >= 4_096 { cancelIDTexts.removeAll(keepingCapacity: true) }
    cancelIDTexts[cancelID] = text
    return text
  }
}
