import Foundation

/// Where a step's action came from, as the store's core reported it: the initial state, the
/// user (or any caller of `send`), an effect (named by the id the store gave it), a
/// synchronous `.send` returned by an earlier step's reducer, an observation callback, or an
/// attached inspector — or, for a step without an action, what an attached inspector did: a
/// jump to the state after an earlier step, or going on from a jumped state.
///
/// Stored as an integer in `steps.origin`: 0 initial, 1 user, -1 observer, -2 inspector,
/// -(k + 3) for a `.send` of step k, and 2 or more for a row of `origins` holding an effect's
/// UUID (or an inspector step's text, `jump:<k>` or `continue:<k>`). The `step_index` view
/// and `storageText` show it as `initial`, `user`, `observer`, `inspector`, `send:<k>`,
/// `effect:<UUID>`, `jump:<k>`, `continue:<k>`.
///
/// ```swift
/// print(StepOrigin.send(step: 3).storageText)  // send:3
/// print(StepOrigin(storageText: "initial") == .initial)  // true
/// ```
public enum StepOrigin: Sendable, Hashable {
  case initial
  case user
  case effect(UUID)
  /// A synchronous `.send` effect returned by the reducer of step `step`.
  case send(step: Int)
  /// Sent from an observation callback while the store notified its observers.
  case observer
  /// Sent by an inspector attached to the running store.
  case inspector
  /// No action: an attached inspector replaced the state with the recorded state after step
  /// `toStep` (a jump back, or the return to the present).
  case jump(toStep: Int)
  /// No action: an attached inspector went on from the jumped state whose history began at
  /// step `fromStep`, cancelling the effects of the future it left.
  case continued(fromStep: Int)

  /// Whether the step has no action: an inspector made it (a jump, or continuing).
  public var isInspectorStep: Bool {
    switch self {
    case .jump, .continued: true
    default: false
    }
  }

  /// What an inspector's step did, in words (`jump to step 12`, `continue from step 12`); nil
  /// for a step with an action.
  public var inspectorStepText: String? {
    switch self {
    case .jump(let step): "jump to step \(step)"
    case .continued(let step): "continue from step \(step)"
    default: nil
    }
  }

  /// The earlier step a step of this origin names (a `.send`'s sender, a jump's target, the
  /// step a continue goes on from).
  public var namedStep: Int? {
    switch self {
    case .send(let step), .jump(let step), .continued(let step): step
    default: nil
    }
  }

  /// The text form, as the `step_index` view's `origin` column shows it.
  public var storageText: String {
    switch self {
    case .initial: "initial"
    case .user: "user"
    case .effect(let id): "effect:" + id.uuidString
    case .send(let step): "send:\(step)"
    case .observer: "observer"
    case .inspector: "inspector"
    case .jump(let step): "jump:\(step)"
    case .continued(let step): "continue:\(step)"
    }
  }

  /// Reads the text form; nil when it is none of the forms.
  public init?(storageText: String) {
    switch storageText {
    case "initial": self = .initial
    case "user": self = .user
    case "observer": self = .observer
    case "inspector": self = .inspector
    default:
      if storageText.hasPrefix("send:"), let step = Int(storageText.dropFirst(5)), step >= 0 {
        self = .send(step: step)
        return
      }
      if storageText.hasPrefix("jump:"), let step = Int(storageText.dropFirst(5)), step >= 0 {
        self = .jump(toStep: step)
        return
      }
      if storageText.hasPrefix("continue:"), let step = Int(storageText.dropFirst(9)),
        step >= 0
      {
        self = .continued(fromStep: step)
        return
      }
      guard storageText.hasPrefix("effect:"),
        let id = UUID(uuidString: String(storageText.dropFirst(7)))
      else { return nil }
      self = .effect(id)
    }
  }

  /// The integer stored in `steps.origin` for an origin that needs no `origins` row; nil for
  /// an effect and an inspector's step.
  var storedCode: Int? {
    switch self {
    case .initial: 0
    case .user: 1
    case .observer: -1
    case .inspector: -2
    case .send(let step): -(step + 3)
    case .effect, .jump, .continued: nil
    }
  }

  /// The origin an integer of `steps.origin` stands for, unless it names an `origins` row
  /// (2 or more); nil for an integer no origin is stored as.
  init?(storedCode code: Int64) {
    switch code {
    case 0: self = .initial
    case 1: self = .user
    case -1: self = .observer
    case -2: self = .inspector
    case ...(-3) where code > Int64.min + 3: self = .send(step: Int(-(code + 3)))
    default: return nil
    }
  }
}
