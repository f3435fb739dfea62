import ComposableCore
import FixtureSupport
import Foundation

/// The family app's home screen (seed 002): the children, the selected child, today's
/// schedules, an AI briefing loaded by an effect, and two presented children — a child's detail
/// and "add a schedule" — through presentation state.
///
/// ```swift
/// let store = Store(initialState: Home.State()) { Home() }
/// store.send(.onAppear)
/// // later: .childrenLoaded(…), .schedulesLoaded(…), .aiBriefingLoaded(…)
/// store.send(.addScheduleTapped)  // scheduleAdd is presented
/// ```
public struct Home: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var children: IdentifiedArrayOf<Child>
    public var selectedChildID: Child.ID?
    public var todaySchedules: [Schedule]
    public var aiBriefing: String?
    public var isLoading: Bool
    public var errorMessage: String?
    @PresentationState public var childDetail: ChildDetail.State?
    @PresentationState public var scheduleAdd: ScheduleAdd.State?

    public init(
      children: IdentifiedArrayOf<Child> = [],
      selectedChildID: Child.ID? = nil,
      todaySchedules: [Schedule] = [],
      aiBriefing: String? = nil,
      isLoading: Bool = false,
      errorMessage: String? = nil,
      childDetail: ChildDetail.State? = nil,
      scheduleAdd: ScheduleAdd.State? = nil
    ) {
      self.children = children
      self.selectedChildID = selectedChildID
      self.todaySchedules = todaySchedules
      self.aiBriefing = aiBriefing
      self.isLoading = isLoading
      self.errorMessage = errorMessage
      self.childDetail = childDetail
      self.scheduleAdd = scheduleAdd
    }

    /// The selected child's schedules of today, by start time.
    public var selectedChildSchedules: [Schedule] {
      todaySchedules.filter { $0.childID == selectedChildID }
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case onAppear
    case childrenLoaded(FetchResult<[Child]>)
    case schedulesLoaded(FetchResult<[Schedule]>)
    case childSelected(Child.ID)
    case aiBriefingLoaded(FetchResult<String>)
    case childCardTapped(Child.ID)
    case addScheduleTapped
    case childDetail(PresentationAction<ChildDetail.Action>)
    case scheduleAdd(PresentationAction<ScheduleAdd.Action>)
  }

  enum CancelID: Hashable, Sendable {
    case load
    case briefing
  }

  @Dependency(\.childRepository) var childRepository
  @Dependency(\.scheduleRepository) var scheduleRepository
  @Dependency(\.briefingClient) var briefingClient
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isLoading = true
        state.errorMessage = nil
        let today = date.now
        let childRepository = self.childRepository
        let scheduleRepository = self.scheduleRepository
        // One effect, children first: the briefing needs both, and the order is the same on
        // every run.
        return .run { send in
          let result = try await FetchResult { try await childRepository.fetchAll() }
          await send(.childrenLoaded(result))
          await send(
            .schedulesLoaded(try await FetchResult { try await scheduleRepository.fetchDay(today) })
          )
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)

      case let .childrenLoaded(.success(children)):
        state.children = IdentifiedArray(uniqueElements: children)
        if state.selectedChildID.flatMap({ state.children[id: $0] }) == nil {
          state.selectedChildID = children.first?.id
        }
        return .none

      case let .schedulesLoaded(.success(schedules)):
        state.isLoading = false
        state.todaySchedules = schedules.sorted { $0.startsAt < $1.startsAt }
        return loadBriefing(state)

      case let .childrenLoaded(.failure(failure)), let .schedulesLoaded(.failure(failure)):
        state.isLoading = false
        state.errorMessage = failure.message
        return .none

      case let .childSelected(id):
        guard state.children[id: id] != nil, id != state.selectedChildID else { return .none }
        state.selectedChildID = id
        state.aiBriefing = nil
        return loadBriefing(state)

      case let .aiBriefingLoaded(.success(briefing)):
        state.aiBriefing = briefing
        return .none

      case let .aiBriefingLoaded(.failure(failure)):
        state.errorMessage = failure.message
        return .none

      case let .childCardTapped(id):
        guard let child = state.children[id: id] else { return .none }
        state.childDetail = ChildDetail.State(child: child)
        return .none

      case .addScheduleTapped:
        guard let childID = state.selectedChildID else { return .none }
        state.scheduleAdd = ScheduleAdd.State(id: uuid(), childID: childID, startsAt: date.now)
        return .none

      case let .childDetail(.presented(.delegate(.childUpdated(child)))):
        state.children[id: child.id] = child
        state.childDetail = nil
        return .none

      case let .scheduleAdd(.presented(.delegate(.scheduleAdded(schedule)))):
        state.todaySchedules.append(schedule)
        state.todaySchedules.sort { $0.startsAt < $1.startsAt }
        state.scheduleAdd = nil
        guard schedule.childID == state.selectedChildID else { return .none }
        state.aiBriefing = nil
        return loadBriefing(state)

      case .childDetail, .scheduleAdd:
        return .none
      }
    }
    .ifLet(\.$childDetail, action: .childDetail) { ChildDetail() }
    .ifLet(\.$scheduleAdd, action: .scheduleAdd) { ScheduleAdd() }
  }

  /// Asks for the selected child's briefing; a newer request replaces the one in flight.
  func loadBriefing(_ state: State) -> Effect<Action> {
    guard let id = state.selectedChildID, let child = state.children[id: id] else {
      return .none
    }
    let schedules = state.todaySchedules
    let briefingClient = self.briefingClient
    return .run { send in
      let result = try await FetchResult { try await briefingClient.brief(child, schedules) }
      await send(.aiBriefingLoaded(result))
    }
    .cancellable(id: CancelID.briefing, cancelInFlight: true)
  }
}

extension AnyCasePath where Root == Home.Action, Value == PresentationAction<ChildDetail.Action> {
  /// The case path to `Home.Action.childDetail`.
  public static var childDetail: Self {
    AnyCasePath(Home.Action.childDetail) {
      if case let .childDetail(action) = $0 { action } else { nil }
    }
  }
}

extension AnyCasePath where Root == Home.Action, Value == PresentationAction<ScheduleAdd.Action> {
  /// The case path to `Home.Action.scheduleAdd`.
  public static var scheduleAdd: Self {
    AnyCasePath(Home.Action.scheduleAdd) {
      if case let .scheduleAdd(action) = $0 { action } else { nil }
    }
  }
}
