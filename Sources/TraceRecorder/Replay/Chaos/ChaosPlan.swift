import Foundation
import TraceKit

/// A trace cut into what a chaos schedule may reorder. A unit is a batch of the recording: an
/// action from outside the reducers, then the synchronous `.send`s the store reduced after it.
/// A unit whose action an effect sent is a delivery (it may move); the others (the user, an
/// observer, an inspector) are anchors, which keep their recorded order.
///
/// What the recording allows a schedule to do with a delivery of effect E: arrive after the
/// unit that started E, after E's earlier deliveries, and before the unit that cancelled E
/// (each such unit waits for E's deliveries that are still to come).
///
/// ```swift
/// let plan = ChaosPlan(steps: steps, effects: effects)
/// plan.units.count       // 9
/// plan.deliveries(of: 2)  // the units effect 2 sent, in order
/// ```
struct ChaosPlan {
  struct Unit {
    /// The recorded steps of the batch (the first is the unit's action).
    var steps: [RecordedStep]
    /// The position in the recorded order.
    var position: Int
    /// The recorded effect that sent it (index in `RecordedEffects`), for a delivery.
    var sender: Int?
    /// The recorded effects that a step of this unit cancelled: the unit waits for their
    /// deliveries still to come.
    var cancels: [Int]
    /// The reads of every step of the batch, in order (served across the whole batch).
    var reads: [DependencyRead]

    var head: RecordedStep { steps[0] }
  }

  let units: [Unit]
  let effects: RecordedEffects
  /// For each recorded effect, the units it sent, in order.
  private let deliveriesByEffect: [Int: [Int]]
  /// For each step, the unit whose batch holds it.
  private let unitOfStep: [Int: Int]
  /// The recorded state hash after the last step.
  let finalHash: UInt64
  /// The number of the last step.
  let lastStep: Int

  init(steps: [RecordedStep], effects: RecordedEffects) {
    var units: [Unit] = []
    var unitOfStep: [Int: Int] = [:]
    for step in steps {
      if step.isSend, !units.isEmpty {
        units[units.count - 1].steps.append(step)
        units[units.count - 1].reads += step.dependencies
      } else {
        var sender: Int?
        if case .effect(let id) = step.origin { sender = effects.indexByID[id] }
        units.append(
          Unit(
            steps: [step], position: units.count, sender: sender, cancels: [],
            reads: step.dependencies))
      }
      unitOfStep[step.step] = units.count - 1
    }
    var deliveries: [Int: [Int]] = [:]
    for unit in units {
      if let sender = unit.sender { deliveries[sender, default: []].append(unit.position) }
    }
    for (index, record) in effects.records.enumerated() {
      if case .cancelled(_, let step?) = record.outcome, let unit = unitOfStep[step] {
        units[unit].cancels.append(index)
      }
    }
    self.units = units
    self.effects = effects
    self.deliveriesByEffect = deliveries
    self.unitOfStep = unitOfStep
    finalHash = steps.last?.stateHash ?? 0
    lastStep = steps.last?.step ?? 0
  }

  /// The units effect `index` sent, in order.
  func deliveries(of index: Int) -> [Int] {
    deliveriesByEffect[index] ?? []
  }

  /// The unit whose batch holds `step`.
  func unit(of step: Int) -> Int? {
    unitOfStep[step]
  }

  /// How many units are deliveries.
  var deliveryCount: Int {
    units.count { $0.sender != nil }
  }
}
