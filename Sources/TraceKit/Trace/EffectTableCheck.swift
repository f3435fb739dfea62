import Foundation

/// Checks a trace's effect table against its step index, without the feature's types: what
/// an untyped replay can say about the effects. Every effect starts at a step of the trace
/// and ends after it started; the steps it sent come after its start, before its end, and
/// name it as their origin; each step sent by an effect is one the effect lists; a
/// concatenation's parts name a concatenation started by the same step; a cancellation names
/// a step of the trace at or after the start.
///
/// ```swift
/// var check = EffectTableCheck(effects: try reader.effects(), lastStep: 40, isComplete: true)
/// try reader.forEachRow(from: 0, to: 40) { row in
///   check.observe(step: row.step, origin: row.origin)
///   return true
/// }
/// check.problems  // ["effect 5F0C1A2B (started by step 3) sent step 9, whose origin is user"]
/// ```
public struct EffectTableCheck: Sendable {
  private let effects: [EffectRecord]
  private let lastStep: Int
  private let isComplete: Bool
  private var indexByID: [UUID: Int] = [:]
  /// The effect that lists each sent step.
  private var senders: [Int: Int] = [:]
  /// The problems found so far, in the order they were found.
  public private(set) var problems: [String] = []

  public init(effects: [EffectRecord], lastStep: Int, isComplete: Bool) {
    self.effects = effects
    self.lastStep = lastStep
    self.isComplete = isComplete
    for (index, effect) in effects.enumerated() {
      indexByID[effect.id] = index
      for step in effect.sentSteps { senders[step] = index }
    }
    for effect in effects { checkRecord(effect) }
  }

  /// Checks a step of the index against the effects: its origin names an effect that lists
  /// it, and an effect that lists it is its origin. Call it for every step, in any order.
  public mutating func observe(step: Int, origin: StepOrigin) {
    // Most steps of most traces: no effect sent them, none lists them.
    if senders.isEmpty, case .user = origin { return }
    if let listing = senders[step], origin != .effect(effects[listing].id) {
      problems.append(
        "\(Self.name(effects[listing])) sent step \(step), whose origin is \(Self.origin(origin))")
    }
    guard case .effect(let id) = origin, senders[step].map({ effects[$0].id }) != id else {
      return
    }
    if let index = indexByID[id] {
      problems.append(
        "\(Self.name(effects[index])) does not list step \(step) as sent, whose origin it is")
    } else {
      problems.append(
        "step \(step) names effect \(Self.short(id)) as its origin, which the trace does "
          + "not record")
    }
  }

  private mutating func checkRecord(_ effect: EffectRecord) {
    let name = Self.name(effect)
    let steps = 1...max(1, lastStep)
    if !steps.contains(effect.startedByStep) || effect.startedByStep > lastStep {
      problems.append("\(name) was started by a step out of range 1...\(lastStep)")
      return
    }
    if let kind = effect.kind, EffectRecord.knownKindText(kind) == nil {
      problems.append("\(name) has the unknown kind \(kind.debugDescription)")
    }
    if let start = effect.startNanos, let end = effect.endNanos, end < start {
      problems.append("\(name) ended (\(end) ns) before it started (\(start) ns)")
    }
    if let started = effect.startedAfterStep {
      if effect.parentID == nil, started != effect.startedByStep {
        problems.append(
          "\(name) started after step \(started), not after the step that returned it")
      } else if started < effect.startedByStep {
        problems.append("\(name) started after step \(started), before the step that started it")
      }
      if let ended = effect.endedAfterStep, ended < started {
        problems.append(
          "\(name) ended after step \(ended), before it started (after step \(started))")
      }
    }
    if let parent = effect.parentID {
      if let index = indexByID[parent] {
        let concatenation = effects[index]
        if concatenation.kind != nil, concatenation.kind != "concatenation" {
          problems.append("\(name) names \(Self.name(concatenation)) as its concatenation")
        } else if concatenation.startedByStep != effect.startedByStep {
          problems.append(
            "\(name) names \(Self.name(concatenation)) as its concatenation, started by "
              + "another step")
        }
      } else {
        problems.append("\(name) names a concatenation the trace does not record")
      }
    }
    switch effect.outcome {
    case .cancelled(_, let step?):
      if step > lastStep || step < effect.startedByStep {
        problems.append(
          "\(name) was cancelled by step \(step), out of range "
            + "\(effect.startedByStep)...\(lastStep)")
      }
    case .running where isComplete:
      problems.append("\(name) is still running in a trace that was closed")
    default:
      break
    }
    for step in effect.sentSteps {
      if step > lastStep || step <= (effect.startedAfterStep ?? effect.startedByStep) {
        problems.append("\(name) sent step \(step), out of range after its start")
      } else if case .cancelled(_, let cancelled?) = effect.outcome, step >= cancelled {
        problems.append("\(name) sent step \(step), after it was cancelled by step \(cancelled)")
      } else if effect.outcome == .finished, let ended = effect.endedAfterStep, step > ended {
        problems.append("\(name) sent step \(step), after it finished (after step \(ended))")
      }
    }
  }

  /// `effect 5F0C1A2B (started by step 3)`.
  static func name(_ effect: EffectRecord) -> String {
    "effect \(short(effect.id)) (started by step \(effect.startedByStep))"
  }

  static func short(_ id: UUID) -> String {
    UUIDText.short(id)
  }

  static func origin(_ origin: StepOrigin) -> String {
    switch origin {
    case .effect(let id): "effect \(short(id))"
    case .send(let step): "the .send of step \(step)"
    default: origin.storageText
    }
  }
}
