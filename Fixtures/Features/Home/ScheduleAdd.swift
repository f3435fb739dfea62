import ComposableCore
import FixtureSupport
import Foundation

/// The "add a schedule" sheet, presented by `Home`. Its new schedule's id and default start come
/// from the `uuid` and `date` dependencies, read when `Home` presents it.
///
/// ```swift
/// store.send(.scheduleAdd(.presented(.titleChanged("Dentist"))))
/// store.send(.scheduleAdd(.presented(.saveTapped)))
/// // later: .saved(.success(…)), then .delegate(.scheduleAdded(…)): Home appends and dismisses
/// ```
public struct ScheduleAdd: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var id: UUID
    public var childID: Child.ID
    public var title: String
    public var startsAt: Date
    public var isSaving: Bool
    public var errorMessage: String?

    public init(
      id: UUID,
      childID: Child.ID,
      title: String = "",
      startsAt: Date,
      isSaving: Bool = false,
      errorMessage: String? = nil
    ) {
      self.id = id
      self.childID = childID
      self.title = title
      self.startsAt = startsAt
      self.isSaving = isSaving
      self.errorMessage = errorMessage
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case titleChanged(String)
    /// Moves the start by a number of minutes (the sheet's time stepper).
    case startMoved(minutes: Int)
    case saveTapped
    case saved(FetchResult<Schedule>)
    case delegate(Delegate)

    /// What the sheet tells `Home`.
    public enum Delegate: Equatable, Sendable, Codable {
      case scheduleAdded(Schedule)
    }
  }

  @Dependency(\.scheduleRepository) var scheduleRepository

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .titleChanged(title):
      state.title = title
      state.errorMessage = nil
      return .none

    case let .startMoved(minutes):
      state.startsAt = state.startsAt.addingTimeInterval(TimeInterval(minutes * 60))
      return .none

    case .saveTapped:
      let title = state.title.trimmingCharacters(in: .whitespaces)
      guard !title.isEmpty else {
        state.errorMessage = "A schedule needs a title."
        return .none
      }
      state.isSaving = true
      let schedule = Schedule(
        id: state.id, childID: state.childID, title: title, startsAt: state.startsAt)
      let scheduleRepository = self.scheduleRepository
      return .run { send in
        await send(.saved(try await FetchResult { try await scheduleRepository.add(schedule) }))
      }

    case let .saved(.success(schedule)):
      state.isSaving = false
      return .send(.delegate(.scheduleAdded(schedule)))

    case let .saved(.failure(failure)):
      state.isSaving = false
      state.errorMessage = failure.message
      return .none

    case .delegate:
      return .none
    }
  }
}
