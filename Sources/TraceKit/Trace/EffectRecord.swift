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

  public init(
    id: UUID, startedByStep: Int, cancelID: String? = nil, file: String? = nil,
    line: Int? = nil, startNanos: UInt64? = nil, endNanos: UInt64? = nil,
    outcome: EffectOutcome = .running, sentSteps: [Int] = []
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
  }
}
