/// A reducer from a closure.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .plus: state.count += 1; return .none
///   }
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
  /// The reducer this one erases, if it erases one (the reducer tree and the instrument
  /// search look into it).
  @usableFromInline let wrapped: (any Reducer)?

  /// A reducer that runs the closure.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
    self.wrapped = nil
  }

  /// Erases another reducer's type; also how a body uses a reducer known only by its
  /// protocol (`Reduce(injectedChild)` with `injectedChild: any Reducer<State, Action>`).
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = reducer.reduce(into:action:)
    self.wrapped = reducer
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer that does nothing.
///
/// ```swift
/// Scope(state: \.settings, action: .settings) { EmptyReducer() }
/// ```
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// A reducer that does nothing.
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}

/// Groups reducers into one (e.g. to apply an operator to several of them).
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.a, action: .a) { A() }
///   Scope(state: \.b, action: .b) { B() }
/// }
/// .ifLet(\.child, action: .child) { Child() }
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers the builder lists.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
