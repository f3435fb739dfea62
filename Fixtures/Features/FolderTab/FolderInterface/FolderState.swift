import ComposableCore
import FixtureSupport
import Foundation

/// The folder grid's state: part of the interface, because a parent that composes the grid
/// must hold it (seed 000: reducers compose only through concrete state and action types).
///
/// ```swift
/// var state = FolderState()
/// state.highlightedDay = CalendarDay(year: 2026, month: 5, day: 12)
/// state.highlightedFolderIDs  // the folders climbed that day
/// ```
public struct FolderState: Equatable, Sendable, Codable {
  public var folders: IdentifiedArrayOf<Folder>
  public var isLoading: Bool
  public var errorMessage: String?
  /// A day chosen elsewhere (the calendar): the grid highlights the folders climbed then.
  public var highlightedDay: CalendarDay?

  public init(
    folders: IdentifiedArrayOf<Folder> = [],
    isLoading: Bool = false,
    errorMessage: String? = nil,
    highlightedDay: CalendarDay? = nil
  ) {
    self.folders = folders
    self.isLoading = isLoading
    self.errorMessage = errorMessage
    self.highlightedDay = highlightedDay
  }

  /// The folders last climbed on the highlighted day, in grid order.
  public var highlightedFolderIDs: [Folder.ID] {
    guard let highlightedDay else { return [] }
    return folders.filter { $0.lastClimbedOn == highlightedDay }.map(\.id)
  }
}
