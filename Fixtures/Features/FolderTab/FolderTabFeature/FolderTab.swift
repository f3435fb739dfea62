import CalendarInterface
import ComposableCore
import FolderInterface

/// The folder tab (seed 000): a folder grid and a climbing calendar side by side. It depends
/// only on the children's interface targets; the target that composes the app injects the
/// implementations:
///
/// ```swift
/// // In FixtureFeatures, which knows FolderFeature and CalendarFeature:
/// let tab = FolderTab(folder: FolderGrid(), calendar: ClimbCalendar())
/// let store = Store(initialState: FolderTabState()) { tab }
/// store.send(.view(.onAppear))
/// ```
///
/// The seed's attempt to inject an existential reducer failed because `Scope` needs a concrete
/// type; being generic over the children's interface protocols keeps the composition static.
/// The reducer is split by intent: `reducerCore` routes to `viewActionCore` and to one
/// `…ChildActionCore` per child.
public struct FolderTab<Folder: FolderReducer, Calendar: CalendarReducer>: Reducer {
  public typealias State = FolderTabState
  public typealias Action = FolderTabAction

  let folder: Folder
  let calendar: Calendar

  /// A folder tab composing the given implementations.
  public init(folder: Folder, calendar: Calendar) {
    self.folder = folder
    self.calendar = calendar
  }

  public var body: some ReducerOf<Self> {
    Scope(state: \.folder, action: .folder) { folder }
    Scope(state: \.calendar, action: .calendar) { calendar }
    Reduce(reducerCore)
  }

  func reducerCore(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case let .view(action):
      return viewActionCore(&state, action)
    case let .folder(action):
      return folderChildActionCore(&state, action)
    case let .calendar(action):
      return calendarChildActionCore(&state, action)
    }
  }

  func viewActionCore(_ state: inout State, _ action: Action.View) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .merge(
        .send(.folder(.view(.onAppear))),
        .send(.calendar(.view(.onAppear)))
      )

    case let .tabSelected(tab):
      state.selectedTab = tab
      return .none

    case .closeFolderTapped:
      state.openedFolderID = nil
      return .none
    }
  }

  func folderChildActionCore(_ state: inout State, _ action: FolderAction) -> Effect<Action> {
    switch action {
    case let .delegate(.folderOpened(id)):
      state.openedFolderID = id
      return .none

    case let .inner(.folderDeleted(.success(id))) where id == state.openedFolderID:
      state.openedFolderID = nil
      return .none

    case .view, .inner:
      return .none
    }
  }

  func calendarChildActionCore(_ state: inout State, _ action: CalendarAction) -> Effect<Action> {
    switch action {
    case let .delegate(.daySelected(day)):
      state.folder.highlightedDay = day
      state.selectedTab = .folder
      return .none

    case .view, .inner:
      return .none
    }
  }
}
