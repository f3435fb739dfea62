import Foundation

/// Two recordings of the same feature compared step by step (before and after a fix, two runs
/// of a flaky test): the first step where the actions differ (their origin, case path or
/// payload), or where the same action left different states, or where one trace ends.
///
/// Both traces are read in step order and once, up to the first difference: the time is
/// linear in the steps they share, whatever their length. Actions are compared by their
/// recorded JSON, which one writer writes the same for the same value. Origins are compared by
/// what they mean across runs: an effect is named by the step that started it and its place
/// among that step's effects (its id differs from run to run).
///
/// ```swift
/// let comparison = try TraceComparison.compare(
///   TraceReader(path: "before.rewind"), TraceReader(path: "after.rewind"))
/// comparison.difference  // .state(step: 12)
/// comparison.context.last?.a.actionPath  // "move"
/// ```
public enum TraceComparison {
  /// Where and how two traces first differ.
  public enum Difference: Sendable, Equatable {
    /// The initial states differ.
    case initialState
    /// Step `step` reduced another action, or an action from another origin.
    case action(step: Int)
    /// Step `step` reduced the same action and left different states.
    case state(step: Int)
    /// One trace ends after `step` (the last step both have); the other goes on.
    case ends(step: Int, first: Side)
    /// One trace has no step `step` (its recorder dropped it); the other does.
    case missingStep(step: Int, missingIn: Side)
  }

  /// Which of the two traces.
  public enum Side: String, Sendable, Equatable {
    case a = "A"
    case b = "B"
  }

  /// One step of one trace, as a comparison shows it.
  public struct Step: Sendable, Equatable {
    public var step: Int
    public var origin: StepOrigin
    /// The origin as it compares across runs: `effect of step N` (its place among that
    /// step's effects when there are several), `send of step N`, `user`, … .
    public var originText: String
    public var actionPath: String
    public var action: TraceValue
    public var stateHash: UInt64
  }

  /// What a comparison found.
  public struct Result: Sendable, Equatable {
    /// How many steps (step 0 included) are the same in both.
    public var sameSteps: Int
    /// The first difference; nil when the traces are the same.
    public var difference: Difference?
    /// Up to a few steps before the difference and the differing one, from both traces.
    public var context: [(a: Step?, b: Step?)]
    /// For a state difference: the states after the step (or the initial states).
    public var states: (a: TraceValue, b: TraceValue)?

    public static func == (lhs: Result, rhs: Result) -> Bool {
      lhs.sameSteps == rhs.sameSteps && lhs.difference == rhs.difference
        && lhs.context.count == rhs.context.count
        && zip(lhs.context, rhs.context).allSatisfy { $0.a == $1.a && $0.b == $1.b }
        && lhs.states?.a == rhs.states?.a && lhs.states?.b == rhs.states?.b
    }
  }

  /// Compares `a` with `b`; `context` is how many equal steps to keep before the difference.
  public static func compare(_ a: TraceReader, _ b: TraceReader, context: Int = 3)
    throws(TraceError) -> Result
  {
    let placesA = EffectPlaces(try a.effects())
    var window = StepWindow(reader: b, places: EffectPlaces(try b.effects()))
    var recent: [(a: Step?, b: Step?)] = []
    var same = 0
    var found: Difference?
    do {
      try a.forEachStep(from: 0, to: .max) { row, payload in
        let (jsonA, stepA) = try payload.withActionJSON { json, _ in
          (Array(json), placesA.step(row))
        }
        guard let (jsonB, stepB) = try window.next() else {
          found = .ends(step: recent.last?.b?.step ?? 0, first: .b)
          recent.append((stepA, nil))
          return false
        }
        if stepA.step != stepB.step {
          // One recorder dropped steps the other has.
          let missing = min(stepA.step, stepB.step)
          found = .missingStep(step: missing, missingIn: stepA.step > missing ? .a : .b)
          recent.append((stepA.step == missing ? stepA : nil, stepB.step == missing ? stepB : nil))
          return false
        }
        recent.append((stepA, stepB))
        if stepA.step > 0, jsonA != jsonB || stepA.originText != stepB.originText {
          found = .action(step: stepA.step)
          return false
        }
        if stepA.stateHash != stepB.stateHash {
          found = stepA.step == 0 ? .initialState : .state(step: stepA.step)
          return false
        }
        same += 1
        if recent.count > context { recent.removeFirst(recent.count - context) }
        return true
      }
      if found == nil, let (_, next) = try window.next() {
        found = .ends(step: recent.last?.a?.step ?? 0, first: .a)
        recent.append((nil, next))
      }
    } catch let error as TraceError {
      throw error
    } catch {
      throw TraceError(.database("\(error)"), file: a.path)
    }
    var result = Result(sameSteps: same, difference: found, context: [], states: nil)
    for pair in recent {
      result.context.append(
        (try pair.a.map { step throws(TraceError) in try parsed(step, in: a) },
          try pair.b.map { step throws(TraceError) in try parsed(step, in: b) }))
    }
    switch found {
    case .initialState: result.states = (try a.state(at: 0), try b.state(at: 0))
    case .state(let step): result.states = (try a.state(at: step), try b.state(at: step))
    default: break
    }
    return result
  }

  /// The step with its action read (the walk kept only its JSON's place).
  private static func parsed(_ step: Step, in reader: TraceReader) throws(TraceError) -> Step {
    var step = step
    step.action = try reader.action(at: step.step)
    return step
  }

  /// Reads the second trace in windows of steps, as the first one is walked.
  private struct StepWindow {
    static let size = 512
    let reader: TraceReader
    let places: EffectPlaces
    var steps: [([UInt8], Step)] = []
    var position = 0
    /// The step to read from when the window runs out.
    var nextStep = 0

    /// The next step of the trace; nil when the trace ends.
    mutating func next() throws -> ([UInt8], Step)? {
      if position >= steps.count {
        let places = self.places
        var loaded: [([UInt8], Step)] = []
        try reader.forEachStep(from: nextStep, to: nextStep + Self.size - 1) { row, payload in
          try payload.withActionJSON { json, _ in loaded.append((Array(json), places.step(row))) }
          return true
        }
        steps = loaded
        position = 0
        nextStep += Self.size
      }
      guard position < steps.count else { return nil }
      defer { position += 1 }
      return steps[position]
    }
  }

  /// Each effect's place: the step that started it and its position among that step's
  /// effects, which names the same effect in two runs.
  private struct EffectPlaces {
    let places: [UUID: (step: Int, position: Int, of: Int)]

    init(_ effects: [EffectRecord]) {
      var counts: [Int: Int] = [:]
      var positions: [UUID: (step: Int, position: Int)] = [:]
      for effect in effects {
        let position = counts[effect.startedByStep, default: 0]
        counts[effect.startedByStep] = position + 1
        positions[effect.id] = (effect.startedByStep, position)
      }
      places = positions.mapValues { ($0.step, $0.position, counts[$0.step] ?? 1) }
    }

    /// The row as a comparison shows it (its action is read only for the report).
    func step(_ row: StepRow) -> Step {
      Step(
        step: row.step, origin: row.origin, originText: text(row.origin),
        actionPath: row.actionPath, action: .null, stateHash: row.stateHash)
    }

    func text(_ origin: StepOrigin) -> String {
      switch origin {
      case .effect(let id):
        guard let place = places[id] else { return "effect (unrecorded)" }
        return "effect of step \(place.step)"
          + (place.of > 1 ? " (\(place.position + 1) of \(place.of))" : "")
      case .send(let step):
        return "send of step \(step)"
      default:
        return origin.storageText
      }
    }
  }
}
