/// A step an attached inspector made without an action: what
/// `StoreInstrument.inspectorStep(_:kind:state:)` is told.
///
/// ```swift
/// // The inspector jumped to step 12 while the store was at step 39, then resumed:
/// // step 40: .jump(toStep: 12)   the state is the one after step 12
/// // step 41: .jump(toStep: 39)   back to the present
/// // — or, instead of resuming, went on from step 12's state:
/// // step 41: .continueFrom(step: 12)
/// ```
@usableFromInline
package enum InspectorStepKind: Sendable, Hashable, CustomStringConvertible {
  /// The state was replaced by the recorded state after step `toStep` (a jump back in the
  /// history, or the return to the present on resume).
  case jump(toStep: Int)
  /// The store went on from the state it had jumped to, whose history began at step `step`:
  /// the effects started by the steps after it, up to the present it left, were cancelled.
  case continueFrom(step: Int)

  @usableFromInline package var description: String {
    switch self {
    case .jump(let step): "jump to step \(step)"
    case .continueFrom(let step): "continue from step \(step)"
    }
  }
}
