import CalendarInterface
import ComposableCore
import FixtureSupport

/// The climbing calendar (seed 000's `CalendarFeature`): a month of days with records, month
/// navigation, and the chosen day told to the parent.
///
/// Split by intent like `FolderGrid`: `reducerCore` routes to `viewActionCore` and
/// `innerActionCore`; `loadMonth` builds the one effect.
///
/// ```swift
/// let store = Store(initialState: CalendarState()) { ClimbCalendar() }
/// store.send(.view(.onAppear))  // month: today's; later .inner(.recordsLoaded(…))
/// ```
public struct ClimbCalendar: CalendarReducer {
  public typealias State = CalendarState
  public typealias Action = CalendarAction

  enum CancelID: Hashable, Sendable {
    case load
  }

  @Dependency(\.climbLogClient) var climbLogClient
  @Dependency(\.date) var date

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
      let today = CalendarDay(date.now)
      state.today = today
      let month = state.month ?? today.calendarMonth
      return show(month, in: &state)

    case .previousMonthTapped:
      guard let month = state.month else { return .none }
      return show(month.previous, in: &state)

    case .nextMonthTapped:
      guard let month = state.month else { return .none }
      return show(month.next, in: &state)

    case let .dayTapped(day):
      guard let month = state.month, (1...month.dayCount).contains(day) else { return .none }
      let selected = month.day(day)
      state.selectedDay = selected
      return .send(.delegate(.daySelected(selected)))
    }
  }

  func innerActionCore(_ state: inout State, _ action: Action.Inner) -> Effect<Action> {
    switch action {
    case let .recordsLoaded(month, result):
      // A month the user has already left: its late answer must not overwrite the shown one.
      guard month == state.month else { return .none }
      state.isLoading = false
      switch result {
      case let .success(days):
        state.climbedDays = days
      case let .failure(failure):
        state.errorMessage = failure.message
      }
      return .none
    }
  }

  func show(_ month: CalendarMonth, in state: inout State) -> Effect<Action> {
    if state.month != month {
      state.month = month
      state.climbedDays = []
    }
    state.isLoading = true
    state.errorMessage = nil
    return loadMonth(month)
  }

  // MARK: Async

  func loadMonth(_ month: CalendarMonth) -> Effect<Action> {
    let climbLogClient = self.climbLogClient
    return .run { send in
      let result = try await FetchResult { try await climbLogClient.climbedDays(month) }
      await send(.inner(.recordsLoaded(month, result)))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }
}
