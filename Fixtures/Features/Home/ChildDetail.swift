import ComposableCore
import FixtureSupport

/// A child's detail sheet, presented by `Home`: edits the nickname and saves it.
///
/// ```swift
/// store.send(.childDetail(.presented(.nicknameChanged("Wooly"))))
/// store.send(.childDetail(.presented(.saveTapped)))
/// // later: .saved(.success(…)), then .delegate(.childUpdated(…)): Home dismisses the sheet
/// ```
public struct ChildDetail: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var child: Child
    public var nicknameDraft: String
    public var isSaving: Bool
    public var errorMessage: String?

    public init(child: Child, isSaving: Bool = false, errorMessage: String? = nil) {
      self.child = child
      self.nicknameDraft = child.nickname
      self.isSaving = isSaving
      self.errorMessage = errorMessage
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case nicknameChanged(String)
    case saveTapped
    case saved(FetchResult<Child>)
    case delegate(Delegate)

    /// What the sheet tells `Home`.
    public enum Delegate: Equatable, Sendable, Codable {
      case childUpdated(Child)
    }
  }

  @Dependency(\.childRepository) var childRepository

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .nicknameChanged(nickname):
      state.nicknameDraft = nickname
      state.errorMessage = nil
      return .none

    case .saveTapped:
      let nickname = state.nicknameDraft.trimmingCharacters(in: .whitespaces)
      guard !nickname.isEmpty else {
        state.errorMessage = "A nickname cannot be empty."
        return .none
      }
      state.isSaving = true
      var child = state.child
      child.nickname = nickname
      let childRepository = self.childRepository
      return .run { [child] send in
        await send(.saved(try await FetchResult { try await childRepository.update(child) }))
      }

    case let .saved(.success(child)):
      state.isSaving = false
      state.child = child
      return .send(.delegate(.childUpdated(child)))

    case let .saved(.failure(failure)):
      state.isSaving = false
      state.errorMessage = failure.message
      return .none

    case .delegate:
      return .none
    }
  }
}
