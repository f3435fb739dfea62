import CalendarFeature
import FolderFeature
import FolderTabFeature

/// The folder tab as the app composes it: this target is the only one that knows both the tab
/// and its children's implementations (seed 000's "Service" module).
///
/// ```swift
/// let store = Store(initialState: FolderTabState()) { AppFolderTab() }
/// ```
public typealias AppFolderTab = FolderTab<FolderGrid, ClimbCalendar>

extension FolderTab where Folder == FolderGrid, Calendar == ClimbCalendar {
  /// The folder tab with the app's folder grid and climbing calendar injected.
  public init() {
    self.init(folder: FolderGrid(), calendar: ClimbCalendar())
  }
}
