import Foundation

/// Who sent a step's action.
package enum StepSource: Sendable, Hashable {
  case initial
  case user
  case effect(UUID)
  /// A synchronous `.send` returned by the reducer of that step.
  case send(step: Int)
  case observer
  case inspector

  /// `initial`, `user`, `effect:<UUID>`, `send:<step>`, `observer` or `inspector`, as the
  /// trace stores it.
  package var text: String {
    switch self {
    case .initial: "initial"
    case .user: "user"
    case .effect(let id): "effect:" + id.uuidString
    case .send(let step): "send:\(step)"
    case .observer: "observer"
    case .inspector: "inspector"
    }
  }
}
