import Foundation

/// Who sent a step's action.
package enum StepSource: Sendable, Hashable {
  case initial
  case user
  case effect(UUID)

  /// `initial`, `user` or `effect:<UUID>`, as the trace stores it.
  package var text: String {
    switch self {
    case .initial: "initial"
    case .user: "user"
    case .effect(let id): "effect:" + id.uuidString
    }
  }
}
