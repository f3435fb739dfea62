import ComposableCore
import Foundation

/// A feature no fixture has, for the type table's completeness: enums and raw-value enums
/// inside structs, inside optionals, inside identified-array elements and inside actions; a
/// presented detail with a presented note inside it; rows run by `forEach` whose effects send
/// actions; an action whose payload is an optional struct.
struct Kennel: Reducer {
  enum Mood: Codable, Equatable, Sendable {
    case calm
    case busy(level: Int)
    case away
  }

  enum Tier: Int, Codable, Equatable, Sendable { case bronze = 1, silver = 2, gold = 3 }

  struct Badge: Codable, Equatable, Sendable {
    var tier: Tier
    var mood: Mood
  }

  struct Note: Reducer {
    struct State: Codable, Equatable, Sendable {
      var tier: Tier
    }

    enum Action: Codable, Equatable, Sendable { case promote }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.tier = .gold
      return .none
    }
  }

  struct Detail: Reducer {
    struct State: Codable, Equatable, Sendable {
      var mood: Mood
      @PresentationState var note: Note.State?
    }

    enum Action: Codable, Equatable, Sendable {
      case note(PresentationAction<Note.Action>)
      case openNote(Tier)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .openNote(let tier) = action { state.note = Note.State(tier: tier) }
        return .none
      }
      .ifLet(
        \.$note,
        action: AnyCasePath(Action.note) { if case .note(let a) = $0 { a } else { nil } }
      ) { Note() }
    }
  }

  struct Row: Reducer {
    struct State: Codable, Equatable, Identifiable, Sendable {
      var id: Int
      var mood = Mood.calm
      var badge: Badge?
    }

    enum Action: Codable, Equatable, Sendable {
      case start(Mood)
      case finished(Mood)
      case award(Badge)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start(let mood):
        return .send(.finished(mood))
      case .finished(let mood):
        state.mood = mood
      case .award(let badge):
        state.badge = badge
      }
      return .none
    }
  }

  struct State: Codable, Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = []
    @PresentationState var detail: Detail.State?
    var picked: Badge?
  }

  enum Action: Codable, Equatable, Sendable {
    case row(IdentifiedActionOf<Row>)
    case detail(PresentationAction<Detail.Action>)
    case add(Row.State)
    case present(Mood)
    case pick(id: Int, badge: Badge?)
    case tag(Badge)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let row):
        state.rows.append(row)
      case .present(let mood):
        state.detail = Detail.State(mood: mood)
      case .pick(_, let badge):
        state.picked = badge
      case .row, .detail, .tag:
        break
      }
      return .none
    }
    .forEach(
      \.rows, action: AnyCasePath(Action.row) { if case .row(let a) = $0 { a } else { nil } }
    ) { Row() }
    .ifLet(
      \.$detail,
      action: AnyCasePath(Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
    ) { Detail() }
  }
}
