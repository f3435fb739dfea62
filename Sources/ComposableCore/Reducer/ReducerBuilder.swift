/// Builds a reducer from the reducers listed in a `body`: they run in order on the same
/// state and their effects are merged. `if`/`else`, optionals and `for` loops work.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.child, action: .child) { Child() }
///   if isLogging { Logger() }
///   Reduce { state, action in … }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  @inlinable
  public static func buildArray<R: Reducer>(_ reducers: consuming [R]) -> ReducerArray<R>
  where R.State == State, R.Action == Action {
    ReducerArray(reducers: reducers)
  }

  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  @inlinable
  public static func buildBlock<R: Reducer>(_ reducer: consuming R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(first reducer: consuming R0)
    -> ReducerConditional<R0, R1>
  where R0.State == State, R0.Action == Action {
    .first(reducer)
  }

  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(second reducer: consuming R1)
    -> ReducerConditional<R0, R1>
  where R1.State == State, R1.Action == Action {
    .second(reducer)
  }

  @inlinable
  public static func buildExpression<R: Reducer>(_ expression: consuming R) -> R
  where R.State == State, R.Action == Action {
    expression
  }

  @inlinable
  public static func buildFinalResult<R: Reducer>(_ reducer: consuming R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer>(_ wrapped: R) -> Reduce<State, Action>
  where R.State == State, R.Action == Action {
    Reduce(wrapped)
  }

  @inlinable
  public static func buildOptional<R: Reducer>(_ wrapped: consuming R?) -> R?
  where R.State == State, R.Action == Action {
    wrapped
  }

  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: consuming R) -> R
  where R.State == State, R.Action == Action {
    first
  }

  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: consuming R0, next: consuming R1
  ) -> ReducerSequence<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    ReducerSequence(first: accumulated, second: next)
  }
}

/// Two reducers run one after the other on the same state, their effects merged.
public struct ReducerSequence<R0: Reducer, R1: Reducer>: Reducer
where R0.State == R1.State, R0.Action == R1.Action {
  @usableFromInline let first: R0
  @usableFromInline let second: R1

  @inlinable
  init(first: R0, second: R1) {
    self.first = first
    self.second = second
  }

  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    let secondEffect = second.reduce(into: &state, action: action)
    return .merging(firstEffect, secondEffect)
  }
}

/// One of two reducers, chosen by an `if`/`else` in a builder.
public enum ReducerConditional<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  case first(First)
  case second(Second)

  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case let .first(first): first.reduce(into: &state, action: action)
    case let .second(second): second.reduce(into: &state, action: action)
    }
  }
}

/// The reducers a `for` loop in a builder produced, run in order.
public struct ReducerArray<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @inlinable
  init(reducers: [Element]) {
    self.reducers = reducers
  }

  @inlinable
  public func reduce(into state: inout Element.State, action: Element.Action)
    -> Effect<Element.Action>
  {
    var effects: [Effect<Element.Action>] = []
    for reducer in reducers {
      effects.append(reducer.reduce(into: &state, action: action))
    }
    return .merge(effects)
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  /// Runs the wrapped reducer when there is one (an `if` without `else` in a builder).
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action)
    -> Effect<Wrapped.Action>
  {
    switch self {
    case let .some(wrapped): wrapped.reduce(into: &state, action: action)
    case .none: .none
    }
  }
}
