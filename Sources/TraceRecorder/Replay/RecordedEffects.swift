import Foundation
import TraceKit

/// The effects a trace recorded, indexed the ways replay asks for them: the tasks each step
/// started, the tasks each concatenation started, and the effects each step cancelled.
///
/// ```swift
/// let effects = RecordedEffects(try reader.effects())
/// effects.started(by: 7)      // indices of the tasks step 7's launch started, in order
/// effects.cancelled(by: 9)    // indices of the effects step 9 cancelled
/// ```
struct RecordedEffects {
  let records: [EffectRecord]
  private let startedByStep: [Int: [Int]]
  private let childrenByParent: [UUID: [Int]]
  private let cancelledByStep: [Int: [Int]]
  /// The keys of `startedByStep` and `cancelledByStep`, asked first.
  private let startingSteps: StepBits
  private let cancellingSteps: StepBits
  let indexByID: [UUID: Int]
  /// Whether the trace records each effect's kind, parent and the steps around its start and
  /// end (what checking effects needs).
  let isComplete: Bool

  init(_ records: [EffectRecord]) {
    self.records = records
    var started: [Int: [Int]] = [:]
    var children: [UUID: [Int]] = [:]
    var cancelled: [Int: [Int]] = [:]
    var byID: [UUID: Int] = [:]
    var starting = StepBits()
    var cancelling = StepBits()
    var complete = true
    for (index, record) in records.enumerated() {
      byID[record.id] = index
      if let parent = record.parentID {
        children[parent, default: []].append(index)
      } else {
        started[record.startedByStep, default: []].append(index)
        starting.insert(record.startedByStep)
      }
      if case .cancelled(_, let step?) = record.outcome {
        cancelled[step, default: []].append(index)
        cancelling.insert(step)
      }
      if record.kind == nil || record.startedAfterStep == nil {
        complete = false
      }
    }
    startedByStep = started
    childrenByParent = children
    cancelledByStep = cancelled
    startingSteps = starting
    cancellingSteps = cancelling
    indexByID = byID
    isComplete = complete
  }

  /// The tasks the launch of `step` started (not a concatenation's later parts), in order.
  func started(by step: Int) -> [Int] {
    guard startingSteps.mayContain(step) else { return [] }
    return startedByStep[step] ?? []
  }

  /// The tasks the concatenation `index` started, in order.
  func children(of index: Int) -> [Int] {
    childrenByParent[records[index].id] ?? []
  }

  /// The effects that `step` cancelled, in the order they started.
  func cancelled(by step: Int) -> [Int] {
    guard cancellingSteps.mayContain(step) else { return [] }
    return cancelledByStep[step] ?? []
  }

  /// The effect, as a divergence report shows it.
  func described(_ index: Int) -> ReplayEffect {
    let record = records[index]
    return ReplayEffect(
      kind: record.kind ?? "effect", cancelID: record.cancelID,
      startedByStep: record.startedByStep,
      location: record.file.map { file in record.line.map { "\(file):\($0)" } ?? file })
  }
}
