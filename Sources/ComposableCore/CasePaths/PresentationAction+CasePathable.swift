extension PresentationAction: CasePathable {
  /// The case paths of `PresentationAction`: `\.destination.presented`, `\.destination.dismiss`.
  ///
  /// ```swift
  /// .ifLet(\.$destination, action: \.destination) { Destination() }
  /// await store.receive(\.destination.presented.saved)
  /// ```
  public struct AllCasePaths: Sendable {
    /// The case path to `.presented`.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(embed: { .presented($0) }) {
        guard case let .presented(action) = $0 else { return nil }
        return action
      }
    }

    /// The case path to `.dismiss`.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(embed: { .dismiss }) {
        guard case .dismiss = $0 else { return nil }
        return ()
      }
    }
  }

  /// The case paths of every case.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
