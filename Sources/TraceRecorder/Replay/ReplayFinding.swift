import TraceKit

/// One way a replayed step differs from what the trace recorded.
///
/// ```swift
/// print(ReplayFinding.cancellationMissing(detailFetch, reason: "cancel"))
/// // the trace recorded cancelling `detailFetch` (run, step 12, Detail.swift:31) with
/// // .cancel(id:); the reducer did not
/// ```
public enum ReplayFinding: Sendable, Equatable, CustomStringConvertible {
  /// The state after the step differs from the recorded one (see `ReplayDivergence.state`).
  case state(changes: Int)
  /// The state differs in its shape, not in its values: a field the type added or removed,
  /// or a value whose type changed since recording.
  case stateShape(String)
  /// The tasks the reducer's effect starts are not those the trace recorded.
  case effectsStarted(recorded: [ReplayEffect], replayed: [ReplayEffect])
  /// The tasks a concatenation's later parts start are not those the trace recorded.
  case concatenationParts(
    of: ReplayEffect, recorded: [ReplayEffect], replayed: [ReplayEffect])
  /// The trace recorded the step cancelling this effect (`reason` as the trace writes it:
  /// `cancel`, `cancelInFlight`, `ifLet`, `forEach`, `presentation`); the reducer did not.
  case cancellationMissing(ReplayEffect, reason: String)
  /// The reducer cancelled this running effect; the trace recorded no such cancellation.
  case cancellationUnexpected(ReplayEffect, reason: String)
  /// Both cancelled the effect, for different reasons.
  case cancellationCause(ReplayEffect, recorded: String, replayed: String)
  /// The synchronous `.send`s the reducer returned are not the recorded ones.
  case sends(recorded: [TraceValue], replayed: [TraceValue])
  /// The reducer read fewer values of a dependency than the trace recorded for the step.
  case dependencyUnread(key: String, recorded: Int, read: Int)
  /// The reducer read more values of a dependency than the trace recorded for the step: the
  /// replay ends here (replay never invents values for a reducer to act on).
  case dependencyRanOut(key: String, recorded: Int, read: Int)
  /// The reducer read a value other than the recorded one (a dependency set inside the
  /// reducer, which replay does not serve, or reads in another order).
  case dependencyValue(key: String, position: Int, recorded: TraceValue, read: TraceValue)
  /// The reducer used the system's randomness directly (`Int.random(in:)`, `UUID()`,
  /// `shuffled()` …), which the trace cannot serve back.
  case systemRandomness(getrandom: Int, deviceOpens: Int)
  /// The trace names as the sender of the step an effect the replay does not have.
  case unknownSender(effect: String)
  /// The trace names as the sender of the step an effect the reducer had cancelled.
  case senderCancelled(ReplayEffect, cancelledAt: Int)
  /// A concatenation's task sent another action than the one its parts send next.
  case concatenationSend(ReplayEffect, recorded: TraceValue, replayed: TraceValue?)

  public var description: String {
    switch self {
    case .state(let changes):
      return "the state after it differs from the recorded one ("
        + (changes == 1 ? "1 change" : "\(changes) changes") + ", below)"
    case .stateShape(let detail):
      return "the state changed shape since recording: \(detail)"
    case .effectsStarted(let recorded, let replayed):
      return "the reducer started " + Self.effects(replayed) + "; the trace recorded "
        + Self.effects(recorded) + Self.sideBySide(recorded, replayed)
    case .concatenationParts(let parent, let recorded, let replayed):
      return "the parts of the concatenation \(parent) start " + Self.effects(replayed)
        + " in the reducer; the trace recorded " + Self.effects(recorded)
        + Self.sideBySide(recorded, replayed)
    case .cancellationMissing(let effect, let reason):
      return "the trace recorded cancelling \(effect) \(Self.how(reason)); the reducer did not"
    case .cancellationUnexpected(let effect, let reason):
      return "the reducer cancelled \(effect) \(Self.how(reason)); the trace recorded no "
        + "cancellation of it here"
    case .cancellationCause(let effect, let recorded, let replayed):
      return "the trace recorded cancelling \(effect) \(Self.how(recorded)); the reducer "
        + "cancelled it \(Self.how(replayed))"
    case .sends(let recorded, let replayed):
      return "the reducer returned " + Self.sends(replayed) + "; the trace recorded "
        + Self.sends(recorded)
    case .dependencyUnread(let key, let recorded, let read):
      return "the reducer read \(Self.values(read, key)); the trace recorded "
        + "\(Self.values(recorded, key)) for this step"
    case .dependencyRanOut(let key, let recorded, let read):
      return "the reducer asked for more `\(key)` values than the trace recorded for this step "
        + "(read \(read), recorded \(recorded)); the replay ends here"
    case .dependencyValue(let key, let position, let recorded, let read):
      return "the reducer's `\(key)` read number \(position + 1) gave "
        + "\(DependencyText.value(read, key: key)); the trace recorded "
        + "\(DependencyText.value(recorded, key: key)) (replay serves the recorded values "
        + "only to dependencies set outside the reducer)"
    case .systemRandomness(let getrandom, let deviceOpens):
      var uses: [String] = []
      if getrandom > 0 {
        uses.append(
          "the system random number generator "
            + (getrandom == 1 ? "once" : "\(getrandom) times")
            + " (Int.random(in:), shuffled(), randomElement() …)")
      }
      if deviceOpens > 0 {
        uses.append(
          "/dev/urandom " + (deviceOpens == 1 ? "once" : "\(deviceOpens) times")
            + " (Foundation's UUID())")
      }
      return "the reducer used " + uses.joined(separator: " and ")
        + " instead of @Dependency(\\.withRandomNumberGenerator) or @Dependency(\\.uuid): "
        + "the trace cannot serve those values"
    case .unknownSender(let effect):
      return "the trace names \(effect) as the sender of this step, but the replay has no "
        + "such effect running"
    case .senderCancelled(let effect, let cancelledAt):
      return "the trace names \(effect) as the sender of this step, but the reducer "
        + "cancelled it at step \(cancelledAt)"
    case .concatenationSend(let effect, let recorded, let replayed):
      return "the concatenation \(effect) sent \(recorded) in the trace; the reducer's "
        + "concatenation sends " + (replayed.map { "\($0)" } ?? "nothing more")
    }
  }

  private static func effects(_ effects: [ReplayEffect]) -> String {
    switch effects.count {
    case 0: "no effect"
    case 1: "1 effect"
    default: "\(effects.count) effects"
    }
  }

  /// The two lists, one effect a line, recorded then replayed.
  private static func sideBySide(_ recorded: [ReplayEffect], _ replayed: [ReplayEffect])
    -> String
  {
    var text = ":"
    for effect in recorded { text += "\n  recorded  \(effect)" }
    for effect in replayed { text += "\n  replayed  \(effect)" }
    return text
  }

  /// How a cancellation happened, in the words of the code that asks for it.
  private static func how(_ reason: String) -> String {
    switch reason {
    case "cancel": "with .cancel(id:)"
    case "cancelInFlight": "in flight (cancelInFlight: true)"
    case "ifLet", "forEach", "presentation", "stack": "by tearing down its \(reason) child"
    default: "(\(reason))"
    }
  }

  private static func sends(_ actions: [TraceValue]) -> String {
    if actions.isEmpty { return "no .send" }
    return actions.map { ".send(\($0))" }.joined(separator: ", ")
  }

  private static func values(_ count: Int, _ key: String) -> String {
    count == 1 ? "1 `\(key)` value" : "\(count) `\(key)` values"
  }
}
