import CalendarInterface
import FolderInterface
import Foundation

/// The folder tab's state: which tab is shown, the two children, the opened folder.
///
/// Declared outside the generic `FolderTab` so that every composition of the tab shares one
/// state type (one type name in traces, one decoder for replay).
public struct FolderTabState: Equatable, Sendable, Codable {
  public var selectedTab: FolderTabKind
  public var folder: FolderState
  public var calendar: CalendarState
  public var openedFolderID: UUID?

  public init(
    selectedTab: FolderTabKind = .folder,
    folder: FolderState = FolderState(),
    calendar: CalendarState = CalendarState(),
    openedFolderID: UUID? = nil
  ) {
    self.selectedTab = selectedTab
    self.folder = folder
    self.calendar = calendar
    self.openedFolderID = openedFolderID
  }
}

/// The two views of the folder tab.
public enum FolderTabKind: String, Equatable, Sendable, Codable {
  case folder
  case calendar
}
