import TraceKit

/// One action in an order of deliveries, as a chaos report shows it: the step it was reduced
/// as, where it came from and its case path.
///
/// ```swift
/// print(ChaosDelivery(step: 3, origin: "effect of step 1", actionPath: "searchResponse",
///   action: .enumCase("searchResponse", []), isMoved: true))
/// // 3  effect of step 1  searchResponse  (moved)
/// ```
public struct ChaosDelivery: Sendable, Equatable, CustomStringConvertible {
  /// The step the action was reduced as in that order.
  public var step: Int
  /// `user`, `effect of step N` (the effect that step started), `observer`, `inspector`.
  public var origin: String
  public var actionPath: String
  public var action: TraceValue
  /// Whether the schedule moved it from its recorded place (it is one of the deliveries the
  /// shrunk schedule needs moved).
  public var isMoved: Bool

  public init(
    step: Int, origin: String, actionPath: String, action: TraceValue, isMoved: Bool = false
  ) {
    self.step = step
    self.origin = origin
    self.actionPath = actionPath
    self.action = action
    self.isMoved = isMoved
  }

  public var description: String {
    "\(step)  \(origin)  \(actionPath)" + (isMoved ? "  (moved)" : "")
  }
}
