import ComposableCore
import Foundation
import TraceKit

/// Runs a chaos replay: reads the trace into a `ChaosPlan`, checks that the recorded order
/// ends as recorded, then runs each schedule from its seed, shrinks and describes those that
/// end differently.
@usableFromInline
enum ChaosDriver {
  /// The chance that a run moves a given delivery.
  static let movePercent: UInt64 = 50

  @usableFromInline
  static func run(
    path: String, seed: UInt64, runs: Int,
    makeSteps: (ReplayTrace) throws(ReplayError) -> ChaosSteps
  ) throws(ReplayError) -> ChaosReport {
    let trace = try ReplayTrace(path: path)
    var steps: [RecordedStep] = []
    try trace.forEachBatch { batch throws(ReplayError) in
      if let jump = batch.first(where: { $0.origin.isInspectorStep }) {
        throw ReplayError(.chaosAcrossInspectorStep(step: jump.step), path: path)
      }
      steps += batch
      return true
    }
    let plan = ChaosPlan(steps: steps, effects: trace.effects)
    let dependencies = DependencyValues.current
    return try ReplayTrace.withReplayContext(dependencies) { served, _ throws(ReplayError) in
      let chaos = ChaosRun(
        plan: plan, steps: try makeSteps(trace), served: served, path: trace.path)
      let recordedKeys = plan.units.map { Double($0.position) }
      let recordedOrder = try chaos.run(keys: recordedKeys, describing: false)
      guard recordedOrder.finalHash == plan.finalHash else {
        throw ReplayError(.chaosRecordedOrderDiffers, path: path)
      }
      var differing: [ChaosSchedule] = []
      for run in 0..<max(0, runs) {
        let runSeed = Self.seed(of: run, from: seed)
        let keys = Self.keys(plan, seed: runSeed)
        guard try chaos.run(keys: keys, describing: false).finalHash != plan.finalHash else {
          continue
        }
        let shrunk = try shrink(keys, plan: plan, chaos: chaos)
        differing.append(
          try describe(shrunk, seed: runSeed, run: run, plan: plan, chaos: chaos, trace: trace))
      }
      return ChaosReport(
        seed: seed, runs: max(0, runs), deliveries: plan.deliveryCount, differing: differing)
    }
  }

  /// The seed of run `run`: the given seed for run 0, so that a schedule's seed with one run
  /// runs that schedule again.
  static func seed(of run: Int, from seed: UInt64) -> UInt64 {
    guard run > 0 else { return seed }
    var generator = SplitMix64(seed: seed ^ (UInt64(run) &* 0x9E37_79B9_7F4A_7C15))
    return generator.next()
  }

  /// The keys of a schedule: anchors keep their position; each delivery moves, with even
  /// chance, anywhere from the start to the end of the trace (the recording's rules keep it
  /// after what it must follow and before what must follow it). At least one moves.
  static func keys(_ plan: ChaosPlan, seed: UInt64) -> [Double] {
    var generator = SplitMix64(seed: seed)
    var keys = plan.units.map { Double($0.position) }
    let deliveries = plan.units.filter { $0.sender != nil }.map(\.position)
    guard !deliveries.isEmpty else { return keys }
    let span = Double(plan.units.count)
    var moved = false
    for unit in deliveries where generator.next() % 100 < movePercent {
      keys[unit] = Double(generator.next() % 1_000_000) / 1_000_000 * (2 * span) - span / 2
      moved = true
    }
    if !moved {
      let unit = deliveries[Int(generator.next() % UInt64(deliveries.count))]
      keys[unit] = Double(generator.next() % 1_000_000) / 1_000_000 * (2 * span) - span / 2
    }
    return keys
  }

  /// Moves back, one at a time, each moved delivery whose move the outcome does not need.
  static func shrink(_ keys: [Double], plan: ChaosPlan, chaos: ChaosRun)
    throws(ReplayError) -> [Double]
  {
    var keys = keys
    for unit in plan.units.indices where keys[unit] != Double(unit) {
      var candidate = keys
      candidate[unit] = Double(unit)
      if try chaos.run(keys: candidate, describing: false).finalHash != plan.finalHash {
        keys = candidate
      }
    }
    return keys
  }

  static func describe(
    _ keys: [Double], seed: UInt64, run: Int, plan: ChaosPlan, chaos: ChaosRun,
    trace: ReplayTrace
  ) throws(ReplayError) -> ChaosSchedule {
    let outcome = try chaos.run(keys: keys, describing: true)
    // The first step whose state is not the recorded step's.
    var hashes: [Int: UInt64] = [:]
    for unit in plan.units {
      for step in unit.steps { hashes[step.step] = step.stateHash }
    }
    var firstDiffering = outcome.steps.count
    for (index, step) in outcome.steps.enumerated() where hashes[index + 1] != step.stateHash {
      firstDiffering = index + 1
      break
    }
    // The two orders by the units' first steps, over the stretch where they differ.
    var scheduled: [ChaosDelivery] = []
    var stepNumber = 0
    var seen = Set<Int>()
    for step in outcome.steps {
      stepNumber += 1
      guard seen.insert(step.unit).inserted else { continue }
      let unit = plan.units[step.unit]
      scheduled.append(
        ChaosDelivery(
          step: stepNumber, origin: origin(of: unit, plan: plan),
          actionPath: unit.head.actionPath, action: unit.head.action,
          isMoved: keys[step.unit] != Double(step.unit)))
    }
    let recorded = plan.units.map { unit in
      ChaosDelivery(
        step: unit.head.step, origin: origin(of: unit, plan: plan),
        actionPath: unit.head.actionPath, action: unit.head.action)
    }
    let order = outcome.order
    let first = order.indices.first { order[$0] != $0 } ?? 0
    let last = order.indices.last { order[$0] != $0 } ?? (order.count - 1)
    let window = max(0, first - 1)..<(last + 2)
    let recordedFinal = try trace.state(at: plan.lastStep)
    let scheduledFinal = try chaos.steps.encodedState(plan.lastStep)
    return ChaosSchedule(
      seed: seed, run: run,
      movedDeliveries: plan.units.indices.count { keys[$0] != Double($0) },
      firstDifferingStep: firstDiffering,
      recorded: Array(recorded[window.clamped(to: recorded.indices)]),
      scheduled: Array(scheduled[window.clamped(to: scheduled.indices)]),
      recordedFinal: recordedFinal, scheduledFinal: scheduledFinal,
      finalChanges: TraceDiff.changes(from: recordedFinal, to: scheduledFinal))
  }

  /// How a report names where a unit's action came from.
  static func origin(of unit: ChaosPlan.Unit, plan: ChaosPlan) -> String {
    if let sender = unit.sender {
      return "effect of step \(plan.effects.records[sender].startedByStep)"
    }
    switch unit.head.origin {
    case .observer: return "observer"
    case .inspector: return "inspector"
    default: return "user"
    }
  }
}
