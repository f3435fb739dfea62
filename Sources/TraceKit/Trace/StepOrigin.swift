import Foundation

/// Where a step's action came from: the initial state, the user (or any caller of `send`), or
/// an effect, named by the UUID the store gave it.
///
/// Stored as an integer (0 initial, 1 user, else a row of `origins` holding the effect's UUID);
/// the `step_index` view and `storageText` show it as `initial`, `user`, `effect:<UUID>`.
///
/// ```swift
/// print(StepOrigin.user.storageText)  // user
/// print(StepOrigin(storageText: "initial") == .initial)  // true
/// ```
public enum StepOrigin: Sendable, Hashable {
  case initial
  case user
  case effect(UUID)

  /// The text form, as the `step_index` view's `origin` column shows it.
  public var storageText: String {
    switch self {
    case .initial: "initial"
    case .user: "user"
    case .effect(let id): "effect:" + id.uuidString
    }
  }

  /// Reads the text form; nil when it is none of the three forms.
  public init?(storageText: String) {
    switch storageText {
    case "initial": self = .initial
    case "user": self = .user
    default:
      guard storageText.hasPrefix("effect:"),
        let id = UUID(uuidString: String(storageText.dropFirst(7)))
      else { return nil }
      self = .effect(id)
    }
  }
}
