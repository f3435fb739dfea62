import ComposableCore
import Foundation
import TraceKit

/// Runs one schedule of a chaos replay: the trace's units in the order their keys give, as far
/// as the recording allows, through the reducer, with the recorded effects started, paired and
/// cancelled as the reducer asks in this order.
///
/// At each turn the units that may come next are: the next anchor (the user's actions keep
/// their order), and for each effect the reducer started in this schedule and has not
/// cancelled, its next delivery. A unit waits while an effect that one of its steps cancelled
/// in the recording still has deliveries to make, so nothing arrives after its recorded
/// cancellation. Of the units that may come next, the one with the smallest key comes; the
/// recorded order is the keys equal to the positions. A delivery of an effect the reducer did
/// not start in this schedule, or cancelled, is dropped, as the store drops a cancelled
/// effect's sends.
///
/// An effect the reducer starts is paired with the recorded effect started in the same place:
/// the same step of the unit's batch, the same position in that step's launch, the same kind
/// and cancellation ids (for a concatenation's parts, the same position among them).
///
/// ```swift
/// let run = ChaosRun(plan: plan, steps: steps, served: served, path: trace.path)
/// let outcome = try run.run(keys: plan.units.map { Double($0.position) }, describing: false)
/// outcome.finalHash == plan.finalHash  // the recorded order ends as recorded
/// ```
struct ChaosRun {
  struct Outcome {
    /// The units in the order they came (dropped deliveries left out).
    var order: [Int]
    var finalHash: UInt64
    /// When describing: each reduced step, in order, with its unit and state hash.
    var steps: [(unit: Int, action: TraceValue?, stateHash: UInt64)] = []
  }

  let plan: ChaosPlan
  let steps: ChaosSteps
  let served: ServedDependencies
  /// The trace file, for errors.
  let path: String
  /// The trace's text of the cancellation ids met so far.
  let texts = CancelIDTexts()

  /// The recorded effects as this schedule drives them.
  private struct Effects {
    /// Paired effects, and whether the reducer cancelled them.
    var cancelled: [Int: Bool] = [:]
    var registry: [EffectCancelID: [Int]] = [:]
  }

  func run(keys: [Double], describing: Bool) throws(ReplayError) -> Outcome {
    steps.reset()
    let units = plan.units
    var done = [Bool](repeating: false, count: units.count)
    var effects = Effects()
    var nextAnchor = units.firstIndex { $0.sender == nil }
    var outcome = Outcome(order: [], finalHash: 0)
    var remaining = units.count
    var stepNumber = 0
    while remaining > 0 {
      var chosen: Int?
      for unit in units.indices where !done[unit] {
        switch readiness(of: unit, done: done, effects: effects, nextAnchor: nextAnchor) {
        case .waiting:
          continue
        case .dropped:
          done[unit] = true
          remaining -= 1
        case .ready:
          if let current = chosen, keys[current] <= keys[unit] { continue }
          chosen = unit
        }
      }
      guard let unit = chosen else {
        // Only dropped units were left.
        guard remaining == 0 else {
          throw ReplayError(
            .unreadableTrace("the effects' records leave no unit that may come next"),
            path: path)
        }
        break
      }
      done[unit] = true
      remaining -= 1
      if units[unit].sender == nil {
        nextAnchor = units[(unit + 1)...].firstIndex { $0.sender == nil }
      }
      outcome.order.append(unit)
      served.load(units[unit].reads)
      let reduced = try steps.runBatch(units[unit].head, describing)
      for (offset, step) in reduced.enumerated() {
        stepNumber += 1
        let recorded = offset < units[unit].steps.count ? units[unit].steps[offset].step : nil
        apply(step, recordedStep: recorded, to: &effects)
        if describing {
          outcome.steps.append((unit, step.action, try steps.stateHash(stepNumber)))
        }
      }
    }
    outcome.finalHash = try steps.stateHash(stepNumber)
    return outcome
  }

  private enum Readiness { case ready, waiting, dropped }

  private func readiness(of unit: Int, done: [Bool], effects: Effects, nextAnchor: Int?)
    -> Readiness
  {
    let candidate = plan.units[unit]
    if let sender = candidate.sender {
      let record = plan.effects.records[sender]
      guard let start = plan.unit(of: record.startedByStep), done[start] else { return .waiting }
      guard let cancelled = effects.cancelled[sender], !cancelled else { return .dropped }
      // Its own sends keep their order.
      let earlier = plan.deliveries(of: sender).prefix { $0 != unit }
      guard earlier.allSatisfy({ done[$0] }) else { return .waiting }
    } else if unit != nextAnchor {
      return .waiting
    }
    // Nothing arrives after the recorded cancellation of its effect.
    for cancelled in candidate.cancels where cancelled != candidate.sender {
      if plan.deliveries(of: cancelled).contains(where: { !done[$0] }) { return .waiting }
    }
    return .ready
  }

  /// What a reduced step's effect does to the recorded effects: its cancellations, then its
  /// launch, pairing what it starts with what the recorded step started.
  private func apply(_ step: ChaosStep, recordedStep: Int?, to effects: inout Effects) {
    for (id, _) in step.cancellations { cancel(id, in: &effects) }
    var recordedStarts = recordedStep.map { plan.effects.started(by: $0)[...] } ?? []
    for event in step.events {
      switch event {
      case .cancelInFlight(let id):
        cancel(id, in: &effects)
      case .start(let shape):
        // Paired only while the starts are those recorded, in order.
        guard let record = recordedStarts.first, fits(shape, record) else {
          recordedStarts = []
          continue
        }
        recordedStarts = recordedStarts.dropFirst()
        pair(shape, with: record, in: &effects)
      }
    }
  }

  private func pair(_ shape: EffectShape, with record: Int, in effects: inout Effects) {
    effects.cancelled[record] = false
    for cancelID in shape.cancelIDs {
      for path in cancelID.navigationIDPath.prefixes {
        effects.registry[
          EffectCancelID(id: cancelID.id, navigationIDPath: path), default: []
        ].append(record)
      }
    }
    guard shape.kind == .concatenation else { return }
    for (child, childRecord) in zip(shape.children, plan.effects.children(of: record)) {
      guard fits(child, childRecord) else { return }
      pair(child, with: childRecord, in: &effects)
    }
  }

  private func fits(_ shape: EffectShape, _ record: Int) -> Bool {
    let recorded = plan.effects.records[record]
    return (recorded.kind ?? shape.kind.rawValue) == shape.kind.rawValue
      && recorded.cancelID == texts.text(of: shape.cancelIDs)
  }

  private func cancel(_ id: EffectCancelID, in effects: inout Effects) {
    for record in effects.registry[id] ?? [] where effects.cancelled[record] == false {
      effects.cancelled[record] = true
    }
  }
}
