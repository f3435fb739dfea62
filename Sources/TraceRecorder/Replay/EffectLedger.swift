import ComposableCore
import Foundation
import TraceKit

/// The recorded effects as the replayed reducer drives them: which are running at each step,
/// what each is registered under, and what the reducer started and cancelled, compared with
/// what the trace recorded the store doing.
///
/// Replay runs no effect. An effect the reducer starts is paired with the effect the trace
/// recorded in the same place (the same step, the same position in the launch order, or the
/// same position among a concatenation's parts); it runs, in the ledger, for as long as the
/// trace says it ran — until it finished (`EffectRecord.endedAfterStep`) or until the
/// reducer cancels it. So a cancellation the reducer asks for reaches exactly the effects the
/// store would have cancelled, and the trace's record of the step says whether it did.
///
/// ```swift
/// var ledger = EffectLedger(RecordedEffects(try reader.effects()))
/// ledger.cancel(detailFetch, cause: .cancel(detailFetch), at: 20)
/// ledger.cancellationFindings(at: 20)
/// // [] — or "the trace recorded cancelling `detailFetch` …; the reducer did not"
/// ```
struct EffectLedger {
  /// A recorded effect the reducer's effects were paired with.
  struct Tracked {
    var record: Int
    /// Every key it is registered under: each cancellation id at each prefix of its path.
    var keys: [EffectCancelID]
    /// Whether a concatenation's task started it (it starts between steps).
    var isPart: Bool
    /// The step at which the reducer cancelled it.
    var cancelledAt: Int?
    /// For a concatenation: what its task sends, in order, and how many the trace reached.
    var plannedSends: [TraceValue] = []
    var sendsSeen = 0
  }

  let recorded: RecordedEffects
  private(set) var tracked: [Tracked] = []
  /// The tracked index of each recorded effect (`records`' indices), -1 for one not paired.
  private var trackedByRecord: [Int]
  private var registry: [EffectCancelID: [Int]] = [:]
  /// The trace's text of the cancellation ids met so far.
  private let texts = CancelIDTexts()
  /// What the reducer cancelled at the step being checked: tracked index and reason.
  private var cancelledNow: [(tracked: Int, reason: String)] = []
  /// The cancel-in-flight ids of concatenations' later parts, which the store performs when
  /// it reaches them and records as cancelled by the step that started the concatenation.
  private var partCancelIDs: [Int: Set<EffectCancelID>] = [:]
  /// What an effect with these cancellation ids is registered under and how the trace writes
  /// them: the same few lists come back at most steps, and making a key hashes its id and
  /// path.
  private var registrations: [[EffectCancelID]: Registration] = [:]
  /// The list looked up last and its registration: comparing a launch's tasks with the trace
  /// and then tracking them asks for the same list again (the same array, which `==` finds
  /// by its storage), and a concatenation's parts share their parent's list. Kept apart, not
  /// as an optional pair: the pair was copied out, retaining its arrays and text, at every
  /// look-up.
  private var lastIDs: [EffectCancelID] = []
  private var lastRegistration = Registration(keys: [], text: nil)

  /// The keys of a list of cancellation ids and its text in the trace.
  private struct Registration {
    /// Each cancellation id at each prefix of its path.
    var keys: [EffectCancelID]
    var text: String?
  }

  init(_ recorded: RecordedEffects) {
    self.recorded = recorded
    trackedByRecord = Array(repeating: -1, count: recorded.records.count)
  }

  /// Whether `tracked` runs while step `step` is reduced (or launched).
  private func isRunning(_ effect: Tracked, at step: Int) -> Bool {
    if effect.cancelledAt != nil { return false }
    let record = recorded.records[effect.record]
    if effect.isPart, let started = record.startedAfterStep, started >= step { return false }
    switch record.outcome {
    case .finished, .cancelled(_, nil):
      if let ended = record.endedAfterStep, ended < step { return false }
      return true
    case .cancelled, .running, .unfinished:
      return true
    }
  }

  /// The reducer of `step` cancels what runs under `id` (`.cancel(id:)`, a teardown, or a
  /// cancel in flight).
  mutating func cancel(_ id: EffectCancelID, cause: EffectCancelCause, at step: Int) {
    // One look-up: the members are taken out, kept in place and put back (or the key
    // removed) at the index found, without hashing and comparing the id again.
    guard let index = registry.index(forKey: id) else { return }
    let reason = cause.traceReason
    var members: [Int] = []
    swap(&members, &registry.values[index])
    var kept = 0
    for position in members.indices {
      let member = members[position]
      if isRunning(tracked[member], at: step) {
        // Found finished: nothing cancelled, and nothing a later cancel can reach.
        if finishes(tracked[member], at: step) { continue }
        tracked[member].cancelledAt = step
        cancelledNow.append((member, reason))
      } else if !hasEnded(tracked[member], before: step) {
        // A concatenation's part that has not started yet.
        members[kept] = member
        kept += 1
      }
    }
    // What has ended stays ended: the list keeps only what a later cancel could reach. An
    // emptied list stays under its key, its storage kept for the effect tracked under that key
    // next (an effect cancelled at every step otherwise freed its list, and tracking the next
    // one allocated it again); an empty list reaches nothing, as no list does. Bounded: past
    // `keptEmptyLimit` keys, an emptied key is removed.
    if kept == 0, registry.count >= Self.keptEmptyLimit {
      registry.remove(at: index)
      return
    }
    // One at a time: `removeLast(_:)` and `removeAll(keepingCapacity:)` went through
    // `replaceSubrange`, several times the cost of the usual one or two `removeLast()`s.
    while members.count > kept { members.removeLast() }
    swap(&members, &registry.values[index])
  }

  /// How many keys `registry` holds before an emptied key is removed rather than kept.
  private static let keptEmptyLimit = 4_096

  /// An inspector's continue, at `step`, left the future `future` behind: the effects its
  /// steps started that still run are cancelled, as the store cancels them.
  mutating func abandon(_ future: ClosedRange<Int>, at step: Int) {
    for member in tracked.indices where isRunning(tracked[member], at: step) {
      guard future.contains(recorded.records[tracked[member].record].startedByStep) else {
        continue
      }
      tracked[member].cancelledAt = step
      cancelledNow.append((member, EffectCancelCause.abandonedFuture.traceReason))
    }
  }

  /// Whether the trace recorded `effect` finishing after step `step`, where a cancel the
  /// reducer of `step` asks for finds it finished rather than running.
  ///
  /// The store learns that an operation returned on the main actor, after the operation
  /// did. A cancel that reaches an effect whose operation returned before the store learned
  /// of it ends the effect as finished (cancelling reaches nothing), and the trace then
  /// records it finished after the cancelling step, as a finish the store learned of between
  /// that step and the next. Either way the operation returned and its sends are behind it,
  /// so the reducer's cancel is consistent with the trace; a cancel of an effect the trace
  /// records ending later still reached a running effect, and is reported.
  private func finishes(_ effect: Tracked, at step: Int) -> Bool {
    let record = recorded.records[effect.record]
    guard case .finished = record.outcome else { return false }
    return record.endedAfterStep == step
  }

  /// Whether `effect` ended (cancelled, or finished) before `step`, for good.
  private func hasEnded(_ effect: Tracked, before step: Int) -> Bool {
    if effect.cancelledAt != nil { return true }
    let record = recorded.records[effect.record]
    switch record.outcome {
    case .finished, .cancelled(_, nil):
      return (record.endedAfterStep ?? .max) < step
    case .cancelled, .running, .unfinished:
      return false
    }
  }

  /// Pairs the tasks the reducer's launch starts with those the trace recorded for `step`,
  /// performing its cancels in flight in order; returns what differs (nothing is started
  /// then).
  mutating func launch(_ events: [EffectShape.Event], at step: Int) -> [ReplayFinding] {
    let recordedStarts = recorded.started(by: step)
    // Most steps start nothing, and the trace recorded nothing started.
    if events.isEmpty, recordedStarts.isEmpty { return [] }
    if let finding = compare(events, recordedStarts, step: step, of: nil) {
      return [finding]
    }
    var next = 0
    var findings: [ReplayFinding] = []
    for index in events.indices {
      switch events[index] {
      case .cancelInFlight(let id):
        cancel(id, cause: .cancelInFlight(id), at: step)
      case .start(let shape):
        let found = track(shape, record: recordedStarts[next], isPart: false, step: step)
        if !found.isEmpty { findings += found }
        next += 1
      }
    }
    return findings
  }

  /// Registers a paired effect and, for a concatenation, pairs its parts.
  private mutating func track(_ shape: EffectShape, record: Int, isPart: Bool, step: Int)
    -> [ReplayFinding]
  {
    let keys = registeredKeys(of: shape.cancelIDs)
    let index = tracked.count
    tracked.append(
      Tracked(record: record, keys: keys, isPart: isPart, plannedSends: shape.sends))
    trackedByRecord[record] = index
    for key in keys { registry[key, default: []].append(index) }
    guard shape.kind == .concatenation else { return [] }
    for event in shape.events {
      if case .cancelInFlight(let id) = event { partCancelIDs[step, default: []].insert(id) }
    }
    let children = recorded.children(of: record)
    if let finding = compare(shape.events, children, step: step, of: record) {
      return [finding]
    }
    // Paired in order, as far as the trace recorded them (`compare` checked there are no
    // more recorded parts than planned ones).
    var findings: [ReplayFinding] = []
    var next = 0
    for event in shape.events where next < children.count {
      guard case .start(let child) = event else { continue }
      let found = track(child, record: children[next], isPart: true, step: step)
      if !found.isEmpty { findings += found }
      next += 1
    }
    return findings
  }

  /// The keys `cancelIDs` are registered under.
  private mutating func registeredKeys(of cancelIDs: [EffectCancelID]) -> [EffectCancelID] {
    if cancelIDs.isEmpty { return [] }
    register(cancelIDs)
    return lastRegistration.keys
  }

  /// The text of `cancelIDs` in the trace.
  private mutating func registeredText(of cancelIDs: [EffectCancelID]) -> String? {
    if cancelIDs.isEmpty { return nil }
    register(cancelIDs)
    return lastRegistration.text
  }

  /// Makes `lastRegistration` the registration of `cancelIDs` (not empty).
  private mutating func register(_ cancelIDs: [EffectCancelID]) {
    if lastIDs == cancelIDs { return }
    let registration: Registration
    if let known = registrations[cancelIDs] {
      registration = known
    } else {
      var keys: [EffectCancelID] = []
      for cancelID in cancelIDs {
        for path in cancelID.navigationIDPath.prefixes {
          keys.append(EffectCancelID(id: cancelID.id, navigationIDPath: path))
        }
      }
      registration = Registration(keys: keys, text: texts.text(of: cancelIDs))
      // Bounded: a trace of ever-new ids (forEach rows by new ids) starts again.
      if registrations.count >= 4_096 { registrations.removeAll(keepingCapacity: true) }
      registrations[cancelIDs] = registration
    }
    lastIDs = cancelIDs
    lastRegistration = registration
  }

  /// Whether the tasks the reducer starts (the `.start`s of `planned`) are those the trace
  /// recorded (for a concatenation's parts, the recorded ones may be fewer: the trace may
  /// end, or the concatenation be cancelled, before the rest start).
  private mutating func compare(
    _ planned: [EffectShape.Event], _ records: [Int], step: Int, of parent: Int?
  ) -> ReplayFinding? {
    // Read in place, by index: iterating copied each event (retaining its shape's lists).
    let starts = planned.count { if case .start = $0 { true } else { false } }
    var fits = parent == nil ? starts == records.count : records.count <= starts
    if fits {
      var next = 0
      for index in planned.indices where next < records.count {
        guard case .start(let shape) = planned[index] else { continue }
        let record = records[next]
        next += 1
        // Read in place: a copy of the record retains each of its strings.
        guard (recorded.records[record].kind ?? shape.kind.rawValue) == shape.kind.rawValue,
          recorded.records[record].cancelID == registeredText(of: shape.cancelIDs)
        else {
          fits = false
          break
        }
      }
    }
    guard !fits else { return nil }
    let recordedEffects = records.map(recorded.described)
    let replayedEffects = planned.compactMap { event -> ReplayEffect? in
      if case .start(let shape) = event { shape.described(step: step, texts: texts) } else { nil }
    }
    if let parent {
      return .concatenationParts(
        of: recorded.described(parent), recorded: recordedEffects, replayed: replayedEffects)
    }
    return .effectsStarted(recorded: recordedEffects, replayed: replayedEffects)
  }

  /// What the reducer cancelled at `step` against what the trace recorded cancelled by it;
  /// clears the step's cancellations.
  mutating func cancellationFindings(at step: Int) -> [ReplayFinding] {
    // Cleared one at a time, its storage kept: `removeAll(keepingCapacity:)` went through
    // `replaceSubrange` (about 130 an empty list, 200 a list of one), at every step.
    defer { while !cancelledNow.isEmpty { cancelledNow.removeLast() } }
    let recordedCancelled = recorded.cancelled(by: step)
    if recordedCancelled.isEmpty && cancelledNow.isEmpty { return [] }
    // Most steps that cancel cancel one effect, the one the trace recorded, for its reason:
    // nothing to report, found without the tables below.
    if recordedCancelled.count == 1, cancelledNow.count == 1,
      tracked[cancelledNow[0].tracked].record == recordedCancelled[0],
      case .cancelled(let reason, _) = recorded.records[recordedCancelled[0]].outcome,
      reason == cancelledNow[0].reason
    {
      return []
    }
    var replayedReasons: [Int: String] = [:]
    for (member, reason) in cancelledNow {
      replayedReasons[tracked[member].record] = reason
    }
    var findings: [ReplayFinding] = []
    var recordedSet = Set<Int>()
    for record in recordedCancelled {
      recordedSet.insert(record)
      guard case .cancelled(let reason, _) = recorded.records[record].outcome else { continue }
      if let replayed = replayedReasons[record] {
        if replayed != reason {
          findings.append(
            .cancellationCause(
              recorded.described(record), recorded: reason, replayed: replayed))
        }
      } else if !isCancelledByAPart(record, step: step, reason: reason) {
        findings.append(.cancellationMissing(recorded.described(record), reason: reason))
      }
    }
    for (member, reason) in cancelledNow where !recordedSet.contains(tracked[member].record) {
      findings.append(
        .cancellationUnexpected(recorded.described(tracked[member].record), reason: reason))
    }
    return findings
  }

  /// A cancel in flight in a concatenation's later part is performed when the task reaches
  /// it, between steps, and recorded as cancelled by the step that started the concatenation:
  /// replay checks that the reducer asked for it, not what it reached then.
  private func isCancelledByAPart(_ record: Int, step: Int, reason: String) -> Bool {
    let member = trackedByRecord[record]
    guard reason == "cancelInFlight", member >= 0, let ids = partCancelIDs[step] else {
      return false
    }
    return tracked[member].keys.contains { ids.contains($0) }
  }

  /// Checks that the effect the trace names as the sender of `step` runs (in the ledger) and,
  /// for a concatenation's own send, that it is the one its parts send next.
  mutating func checkSender(_ id: UUID, action: TraceValue, at step: Int) -> ReplayFinding? {
    guard let record = recorded.indexByID[id] else {
      return .unknownSender(effect: id.uuidString)
    }
    let member = trackedByRecord[record]
    guard member >= 0 else {
      return .unknownSender(effect: recorded.described(record).description)
    }
    if let cancelledAt = tracked[member].cancelledAt {
      return .senderCancelled(recorded.described(record), cancelledAt: cancelledAt)
    }
    guard recorded.records[record].kind == EffectLaunch.Kind.concatenation.rawValue else {
      return nil
    }
    let position = tracked[member].sendsSeen
    tracked[member].sendsSeen += 1
    let planned = tracked[member].plannedSends
    let expected = position < planned.count ? planned[position] : nil
    guard expected != action else { return nil }
    return .concatenationSend(recorded.described(record), recorded: action, replayed: expected)
  }
}
