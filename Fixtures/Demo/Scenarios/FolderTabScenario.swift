import CalendarFeature
import FixtureFeatures
import FolderFeature
import FolderTabFeature

/// A climber who browses folders and the calendar, picks days, opens, creates and deletes
/// folders.
struct FolderTabScenario: Scenario {
  var name: String { "folder-tab" }
  var summary: String { "Folder tab: folder grid and climbing calendar via interfaces" }

  static let folderNames = ["Gym", "Crag", "Board", "Comp", "Slab", "Roof"]

  func makeReducer() -> AppFolderTab { AppFolderTab() }

  func initialState() -> FolderTabState { FolderTabState() }

  func openingActions() -> [FolderTabAction] { [.view(.onAppear)] }

  func nextAction(in state: FolderTabState, random: inout DemoRandom) -> FolderTabAction? {
    let folders = state.folder.folders.elements
    let dayCount = state.calendar.month?.dayCount ?? 28
    let newName = random.pick(Self.folderNames).map { "\($0) \(folders.count + 1)" } ?? "New"
    let tapped = random.pick(folders)?.id
    let deleted = folders.count > 3 ? random.pick(folders)?.id : nil
    return random.weighted([
      (15, .view(.tabSelected(state.selectedTab == .folder ? .calendar : .folder))),
      (20, .calendar(.view(.dayTapped(random.int(in: 1...dayCount))))),
      (8, .calendar(.view(.nextMonthTapped))),
      (8, .calendar(.view(.previousMonthTapped))),
      (tapped == nil ? 0 : 15, tapped.map { .folder(.view(.folderTapped($0))) }),
      (state.openedFolderID == nil ? 0 : 10, .view(.closeFolderTapped)),
      (10, .folder(.view(.createFolderTapped(name: newName)))),
      (deleted == nil ? 0 : 5, deleted.map { .folder(.view(.deleteFolderTapped($0))) }),
    ]) ?? nil
  }
}
