import ComposableCore
import FixtureSupport
import FolderInterface
import Foundation

/// The folder grid (seed 000's `FolderFeature`): loads, creates and deletes folders, and tells
/// its parent which folder was opened.
///
/// The reducer is split by intent as the seed's "After" code is: `reducerCore` routes each
/// action to `viewActionCore` (what the view sent), `innerActionCore` (what an effect sent
/// back) or `delegateActionCore`, and the effects are built by the async functions below.
///
/// ```swift
/// let store = Store(initialState: FolderState()) { FolderGrid() }
/// store.send(.view(.onAppear))  // later: .inner(.foldersLoaded(.success([…])))
/// ```
public struct FolderGrid: FolderReducer {
  public typealias State = FolderState
  public typealias Action = FolderAction

  enum CancelID: Hashable, Sendable {
    case load
  }

  @Dependency(\.folderClient) var folderClient
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce(reducerCore)
  }

  func reducerCore(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case let .view(action):
      return viewActionCore(&state, action)
    case let .inner(action):
      return innerActionCore(&state, action)
    case .delegate:
      return .none
    }
  }

  func viewActionCore(_ state: inout State, _ action: Action.View) -> Effect<Action> {
    switch action {
    case .onAppear:
      state.isLoading = true
      return fetchFolders()

    case let .folderTapped(id):
      guard state.folders[id: id] != nil else { return .none }
      return .send(.delegate(.folderOpened(id)))

    case let .createFolderTapped(name):
      let name = name.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else {
        state.errorMessage = "A folder needs a name."
        return .none
      }
      state.errorMessage = nil
      return createFolder(Folder(id: uuid(), name: name))

    case let .deleteFolderTapped(id):
      guard state.folders[id: id] != nil else { return .none }
      return deleteFolder(id)
    }
  }

  func innerActionCore(_ state: inout State, _ action: Action.Inner) -> Effect<Action> {
    switch action {
    case let .foldersLoaded(.success(folders)):
      state.isLoading = false
      state.folders = IdentifiedArray(uniqueElements: folders)
      return .none

    case let .folderCreated(.success(folder)):
      state.folders.append(folder)
      return .none

    case let .folderDeleted(.success(id)):
      state.folders.remove(id: id)
      return .none

    case let .foldersLoaded(.failure(failure)):
      state.isLoading = false
      state.errorMessage = failure.message
      return .none

    case let .folderCreated(.failure(failure)), let .folderDeleted(.failure(failure)):
      state.errorMessage = failure.message
      return .none
    }
  }

  // MARK: Async

  func fetchFolders() -> Effect<Action> {
    let folderClient = self.folderClient
    return .run { send in
      let result = try await FetchResult { try await folderClient.fetchAll() }
      await send(.inner(.foldersLoaded(result)))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }

  func createFolder(_ folder: Folder) -> Effect<Action> {
    let folderClient = self.folderClient
    return .run { send in
      let result = try await FetchResult { try await folderClient.create(folder) }
      await send(.inner(.folderCreated(result)))
    }
  }

  func deleteFolder(_ id: Folder.ID) -> Effect<Action> {
    let folderClient = self.folderClient
    return .run { send in
      let result = try await FetchResult { try await folderClient.delete(id) }
      await send(.inner(.folderDeleted(result)))
    }
  }
}
