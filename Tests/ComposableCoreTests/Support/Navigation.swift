import ComposableCore
import Locking

/// What effects and reducers did, in order, from any thread.
final class EventLog: Sendable {
  private let storage = Lock<[String]>([])

  func append(_ event: String) {
    storage.withLock { $0.append(event) }
  }

  var events: [String] { storage.withLock { $0 } }
}

/// A child whose `start` sleeps (for 1000 s) until cancelled, logging when it started and when
/// it was cancelled; `stop` cancels it by id.
struct Sleeper: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
  }

  enum Action: Equatable, Sendable {
    case start
    case stop
  }

  let log: EventLog
  let name: String

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      let (log, name) = (self.log, "\(name) \(state.id)")
      return .run { _ in
        await withTaskCancellationHandler {
          log.append("\(name) started")
          try? await Task.sleep(for: .seconds(1000))
        } onCancel: {
          log.append("\(name) onCancel")
        }
      }
      .cancellable(id: "timer")
    case .stop:
      return .cancel(id: "timer")
    }
  }
}

/// A parent with every kind of child (ifLet, forEach, presentation) running `Sleeper`s; the
/// parent logs the child actions it sees.
struct Navigation: Reducer {
  struct State: Equatable, Sendable {
    var detail: Sleeper.State?
    var rows: IdentifiedArrayOf<Sleeper.State> = []
    @PresentationState var sheet: Sleeper.State?
  }

  enum Action: Equatable, Sendable {
    case detail(Sleeper.Action)
    case rows(IdentifiedAction<Int, Sleeper.Action>)
    case sheet(PresentationAction<Sleeper.Action>)
    case showDetail, hideDetail
    case addRow(Int), removeRow(Int)
    case present
    case stopAll
  }

  let log: EventLog

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showDetail:
        state.detail = Sleeper.State(id: 0)
      case .hideDetail:
        state.detail = nil
      case let .addRow(id):
        state.rows.append(Sleeper.State(id: id))
      case let .removeRow(id):
        state.rows.remove(id: id)
      case .present:
        state.sheet = Sleeper.State(id: 0)
      case .stopAll:
        return .cancel(id: "timer")
      case let .rows(.element(id, .stop)):
        log.append("parent sees row \(id) stop")
      case .sheet(.dismiss):
        log.append("parent sees dismiss, sheet present: \(state.sheet != nil)")
      case .detail, .rows, .sheet:
        break
      }
      return .none
    }
    .ifLet(\.detail, action: .navigationDetail) { Sleeper(log: log, name: "detail") }
    .forEach(\.rows, action: .navigationRows) { Sleeper(log: log, name: "row") }
    .ifLet(\.$sheet, action: .navigationSheet) { Sleeper(log: log, name: "sheet") }
  }
}

extension AnyCasePath where Root == Navigation.Action, Value == Sleeper.Action {
  static var navigationDetail: Self {
    .init(Root.detail) { if case let .detail(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath
where Root == Navigation.Action, Value == IdentifiedAction<Int, Sleeper.Action> {
  static var navigationRows: Self {
    .init(Root.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }
}

extension AnyCasePath where Root == Navigation.Action, Value == PresentationAction<Sleeper.Action>
{
  static var navigationSheet: Self {
    .init(Root.sheet) { if case let .sheet(action) = $0 { action } else { nil } }
  }
}
