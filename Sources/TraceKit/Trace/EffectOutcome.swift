/// How an effect ended, or that it had not.
///
/// Stored in the `effects` table as `outcome` text (`running`, `finished`, `cancelled`,
/// `unfinished`) plus `cancel_reason` and `cancelled_by_step` for a cancellation.
///
/// ```swift
/// let outcome = EffectOutcome.cancelled(reason: "cancelInFlight", byStep: 12)
/// print(outcome.storageText)  // cancelled
/// ```
public enum EffectOutcome: Sendable, Hashable {
  case running
  case finished
  /// `reason`: "cancel", "cancelInFlight", "ifLet", "forEach", "presentation", "storeDeinit",
  /// "taskCancelled"; `byStep`: the step whose reducer cancelled it, when one did.
  case cancelled(reason: String, byStep: Int?)
  /// Still running when the trace was closed.
  case unfinished

  /// The text stored in the `outcome` column.
  public var storageText: String { storageStaticText.description }

  /// `storageText` as a static text, which the writer binds where it is.
  package var storageStaticText: StaticString {
    switch self {
    case .running: "running"
    case .finished: "finished"
    case .cancelled: "cancelled"
    case .unfinished: "unfinished"
    }
  }
}
