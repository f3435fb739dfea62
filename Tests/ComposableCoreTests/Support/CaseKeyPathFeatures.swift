import ComposableCore

/// A parent that composes its children with case key paths only (no `AnyCasePath` spelled
/// out): the conformances below are what upstream's `@CasePathable` macro writes.
struct KeyPathParent: Reducer {
  struct State: Equatable, Sendable {
    var counter = Counter.State()
    var detail: Counter.State?
    @PresentationState var sheet: Counter.State?
    var rows: IdentifiedArrayOf<Row.State> = []
  }

  enum Action: Equatable, Sendable {
    case counter(Counter.Action)
    case detail(Counter.Action)
    case sheet(PresentationAction<Counter.Action>)
    case rows(IdentifiedActionOf<Row>)
    case showDetail
    case showSheet
    case addRow(Int)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { Counter() }
    Reduce { state, action in
      switch action {
      case .showDetail:
        state.detail = Counter.State()
        return .none
      case .showSheet:
        state.sheet = Counter.State()
        return .none
      case let .addRow(id):
        state.rows.append(Row.State(id: id))
        return .none
      case .counter, .detail, .sheet, .rows:
        return .none
      }
    }
    .ifLet(\.detail, action: \.detail) { Counter() }
    .ifLet(\.$sheet, action: \.sheet) { Counter() }
    .forEach(\.rows, action: \.rows) { Row() }
  }
}

extension KeyPathParent.Action: CasePathable {
  struct AllCasePaths {
    var counter: AnyCasePath<KeyPathParent.Action, Counter.Action> {
      AnyCasePath<KeyPathParent.Action, Counter.Action>(
        embed: KeyPathParent.Action.counter,
        extract: {
          guard case let .counter(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var detail: AnyCasePath<KeyPathParent.Action, Counter.Action> {
      AnyCasePath<KeyPathParent.Action, Counter.Action>(
        embed: KeyPathParent.Action.detail,
        extract: {
          guard case let .detail(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var sheet: AnyCasePath<KeyPathParent.Action, PresentationAction<Counter.Action>> {
      AnyCasePath<KeyPathParent.Action, PresentationAction<Counter.Action>>(
        embed: KeyPathParent.Action.sheet,
        extract: {
          guard case let .sheet(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var rows: AnyCasePath<KeyPathParent.Action, IdentifiedActionOf<Row>> {
      AnyCasePath<KeyPathParent.Action, IdentifiedActionOf<Row>>(
        embed: KeyPathParent.Action.rows,
        extract: {
          guard case let .rows(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var showDetail: AnyCasePath<KeyPathParent.Action, Void> {
      AnyCasePath<KeyPathParent.Action, Void>(
        embed: { KeyPathParent.Action.showDetail },
        extract: {
          guard case .showDetail = $0 else { return nil }
          return ()
        }
      )
    }
    var showSheet: AnyCasePath<KeyPathParent.Action, Void> {
      AnyCasePath<KeyPathParent.Action, Void>(
        embed: { KeyPathParent.Action.showSheet },
        extract: {
          guard case .showSheet = $0 else { return nil }
          return ()
        }
      )
    }
    var addRow: AnyCasePath<KeyPathParent.Action, Int> {
      AnyCasePath<KeyPathParent.Action, Int>(
        embed: KeyPathParent.Action.addRow,
        extract: {
          guard case let .addRow(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension Counter.Action: CasePathable {
  struct AllCasePaths {
    var plus: AnyCasePath<Counter.Action, Void> {
      AnyCasePath<Counter.Action, Void>(
        embed: { Counter.Action.plus },
        extract: {
          guard case .plus = $0 else { return nil }
          return ()
        }
      )
    }
    var rename: AnyCasePath<Counter.Action, String> {
      AnyCasePath<Counter.Action, String>(
        embed: Counter.Action.rename,
        extract: {
          guard case let .rename(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var load: AnyCasePath<Counter.Action, Void> {
      AnyCasePath<Counter.Action, Void>(
        embed: { Counter.Action.load },
        extract: {
          guard case .load = $0 else { return nil }
          return ()
        }
      )
    }
    var loaded: AnyCasePath<Counter.Action, String> {
      AnyCasePath<Counter.Action, String>(
        embed: Counter.Action.loaded,
        extract: {
          guard case let .loaded(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// A state that is one of two cases, scoped by case key paths on both sides.
struct Session: Reducer {
  enum State: Equatable, Sendable {
    case loggedOut
    case loggedIn(Counter.State)
  }

  enum Action: Equatable, Sendable {
    case loggedIn(Counter.Action)
    case logIn
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.loggedIn, action: \.loggedIn) { Counter() }
    Reduce { state, action in
      if case .logIn = action { state = .loggedIn(Counter.State()) }
      return .none
    }
  }
}

extension Session.State: CasePathable {
  struct AllCasePaths {
    var loggedOut: AnyCasePath<Session.State, Void> {
      AnyCasePath<Session.State, Void>(
        embed: { Session.State.loggedOut },
        extract: {
          guard case .loggedOut = $0 else { return nil }
          return ()
        }
      )
    }
    var loggedIn: AnyCasePath<Session.State, Counter.State> {
      AnyCasePath<Session.State, Counter.State>(
        embed: Session.State.loggedIn,
        extract: {
          guard case let .loggedIn(v0) = $0 else { return nil }
          return v0
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension Session.Action: CasePathable {
  struct AllCasePaths {
    var loggedIn: AnyCasePath<Session.Action, Counter.Action> {
      AnyCasePath<Session.Action, Counter.Action>(
        embed: Session.Action.loggedIn,
        extract: {
          guard case let .loggedIn(v0) = $0 else { return nil }
          return v0
        }
      )
    }
    var logIn: AnyCasePath<Session.Action, Void> {
      AnyCasePath<Session.Action, Void>(
        embed: { Session.Action.logIn },
        extract: {
          guard case .logIn = $0 else { return nil }
          return ()
        }
      )
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
