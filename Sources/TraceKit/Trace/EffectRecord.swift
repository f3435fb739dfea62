import Foundation

/// One effect: which step started it, where, how it ended and which steps it sent.
///
/// ```swift
/// let effect = EffectRecord(id: id, startedByStep: 3, cancelID: "timer", startNanos: 9_000)
/// print(effect.outcome)  // running
/// ```
public struct EffectRecord: Sendable, Hashable {
  public var id: UUID
  /// The step whose reducer returned the effect.
  public var startedByStep: Int
  /// A description of the cancellation id, if the effect is cancellable.
  public var cancelID: String?
  public var file: String?
  public var line: Int?
  public var startNanos: UInt64?
  public var endNanos: UInt64?
  public var outcome: EffectOutcome
  /// The steps whose actions this effect sent, in order.
  public var sentSteps: [Int]
  /// What the store ran: `run` (an `Effect.run`) or `concatenation` (the task running a
  /// concatenation's parts after its first asynchronous one); nil in traces that predate it.
  public var kind: String?
  /// The concatenation whose task started this effect, if one did.
  public var parentID: UUID?
  /// How many steps had been reduced when the effect started (a concatenation's later part
  /// starts between steps); nil in traces that predate it.
  public var startedAfterStep: Int?
  /// How many steps had been reduced when the effect ended (an effect cancelled while step n
  /// is reduced ended after n - 1); nil while it runs and in traces that predate it.
  public var endedAfterStep: Int?

  public init(
    id: UUID, startedByStep: Int, cancelID: String? = nil, file: String? = nil,
    line: Int? = nil, startNanos: UInt64? = nil, endNanos: UInt64? = nil,
    outcome: EffectOutcome = .running, sentSteps: [Int] = [], kind: String? = nil,
    parentID: UUID? = nil, startedAfterStep: Int? = nil, endedAfterStep: Int? = nil
  ) {
    self.id = id
    self.startedByStep = startedByStep
    self.cancelID = cancelID
    self.file = file
    self.line = line
    self.startNanos = startNanos
    self.endNanos = endNanos
    self.outcome = outcome
    self.sentSteps = sentSteps
    self.kind = kind
    self.parentID = parentID
    self.startedAfterStep = startedAfterStep
    self.endedAfterStep = endedAfterStep
  }
}
