import FixtureSupport
import Foundation

/// The folder grid's actions, organized by intent as seed 000 ends up with: what the view may
/// send (`view`), what the grid's effects feed back (`inner`), and what it tells its parent
/// (`delegate`).
///
/// ```swift
/// store.send(.view(.createFolderTapped(name: "Bouldering")))
/// // later: .inner(.folderCreated(.success(Folder(…))))
/// ```
public enum FolderAction: Equatable, Sendable, Codable {
  case view(View)
  case inner(Inner)
  case delegate(Delegate)

  /// What the grid's view sends: the only actions a view may send.
  public enum View: Equatable, Sendable, Codable {
    case onAppear
    case folderTapped(Folder.ID)
    case createFolderTapped(name: String)
    case deleteFolderTapped(Folder.ID)
  }

  /// What the grid's effects send back.
  public enum Inner: Equatable, Sendable, Codable {
    case foldersLoaded(FetchResult<[Folder]>)
    case folderCreated(FetchResult<Folder>)
    case folderDeleted(FetchResult<Folder.ID>)
  }

  /// What the grid tells the feature that composes it.
  public enum Delegate: Equatable, Sendable, Codable {
    case folderOpened(Folder.ID)
  }
}
