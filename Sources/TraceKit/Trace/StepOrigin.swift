import Foundation

/// Where a step's action came from: the initial state, the user (any caller of `send`), an
/// effect (named by the id the store gave it), a `.send` effect that the reducer of an
/// earlier step returned (sent synchronously right after it), an observer of the store, or
/// the inspector acting on a live store.
///
/// Stored as an integer (0 initial, 1 user, 2 observer, 3 inspector, −k a `.send` of step k,
/// from 4 on a row of `origins` holding the effect's UUID); the `step_index` view and
/// `storageText` show it as `initial`, `user`, `observer`, `inspector`, `send:<k>`,
/// `effect:<UUID>`.
///
/// ```swift
/// print(StepOrigin.user.storageText)  // user
/// print(StepOrigin.send(step: 4).storageText)  // send:4
/// print(StepOrigin(storageText: "initial") == .initial)  // true
/// ```
public enum StepOrigin: Sendable, Hashable {
  case initial
  case user
  case effect(UUID)
  /// A `.send` effect returned by the reducer of step `step`.
  case send(step: Int)
  case observer
  case inspector

  /// The text form, as the `step_index` view's `origin` column shows it.
  public var storageText: String {
    switch self {
    case .initial: "initial"
    case .user: "user"
    case .effect(let id): "effect:" + id.uuidString
    case .send(let step): "send:\(step)"
    case .observer: "observer"
    case .inspector: "inspector"
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
      guard storageText.hasPrefix("effect:"),
        let id = UUID(uuidString: String(storageText.dropFirst(7)))
      else { return nil }
      self = .effect(id)
    }
  }
}
