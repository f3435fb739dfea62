import ComposableCore
import Foundation
import TestSupport

/// A counter whose `load` effect waits at a named gate, then sends `loaded`: the feature the
/// live tests steer. Its rows (forEach) each count on their own.
struct LiveFeature: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var loaded: [String] = []
    var rows: IdentifiedArrayOf<Row.State> = []
  }

  enum Action: Codable, Equatable, Sendable {
    case plus
    case load(String)
    case loaded(String)
    case addRow(Int)
    case row(IdentifiedAction<Int, Row.Action>)
  }

  let gates: EffectGates

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .plus:
        state.count += 1
        return .none
      case .load(let name):
        return .run { [gates] send in
          await gates.wait(name)
          await send(.loaded(name))
        }
        .cancellable(id: name)
      case .loaded(let name):
        state.loaded.append(name)
        return .none
      case .addRow(let id):
        state.rows.append(Row.State(id: id))
        return .none
      case .row:
        return .none
      }
    }
    .forEach(\.rows, action: .liveRow) { Row() }
  }

  struct Row: Reducer {
    struct State: Codable, Equatable, Sendable, Identifiable {
      var id: Int
      var taps = 0
    }

    enum Action: Codable, Equatable, Sendable { case tap }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.taps += 1
      return .none
    }
  }
}

extension AnyCasePath where Root == LiveFeature.Action, Value == IdentifiedAction<
  Int, LiveFeature.Row.Action
> {
  static var liveRow: Self {
    AnyCasePath(embed: LiveFeature.Action.row) {
      guard case .row(let action) = $0 else { return nil }
      return action
    }
  }
}
