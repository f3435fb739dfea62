import CalendarInterface
import ComposableCore
import FolderInterface

/// The folder tab's actions (seed 000's final organization): the view's own actions apart from
/// the children's.
///
/// ```swift
/// store.send(.view(.tabSelected(.calendar)))
/// store.send(.calendar(.view(.dayTapped(12))))  // the folder grid highlights that day
/// ```
public enum FolderTabAction: Equatable, Sendable, Codable {
  case view(View)
  case folder(FolderAction)
  case calendar(CalendarAction)

  /// What the folder tab's view sends.
  public enum View: Equatable, Sendable, Codable {
    case onAppear
    case tabSelected(FolderTabKind)
    case closeFolderTapped
  }
}

extension AnyCasePath where Root == FolderTabAction, Value == FolderAction {
  /// The case path to `FolderTabAction.folder`.
  public static var folder: Self {
    AnyCasePath(FolderTabAction.folder) {
      if case let .folder(action) = $0 { action } else { nil }
    }
  }
}

extension AnyCasePath where Root == FolderTabAction, Value == CalendarAction {
  /// The case path to `FolderTabAction.calendar`.
  public static var calendar: Self {
    AnyCasePath(FolderTabAction.calendar) {
      if case let .calendar(action) = $0 { action } else { nil }
    }
  }
}
