extension Reducer {
  /// Runs another reducer when a value derived from the state changes.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.query) { oldValue, newValue in
  ///     Reduce { state, _ in .send(.search(newValue)) }
  ///   }
  /// ```
  @inlinable
  public consuming func onChange<Value: Equatable, R: Reducer>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value)
      -> R
  ) -> OnChangeReducer<Self, Value, R> where R.State == State, R.Action == Action {
    OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer `Reducer.onChange(of:_:)` returns.
public struct OnChangeReducer<Base: Reducer, Value: Equatable, R: Reducer>: Reducer
where R.State == Base.State, R.Action == Base.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let reducer: (Value, Value) -> R

  @inlinable
  init(
    base: Base, toValue: @escaping (Base.State) -> Value,
    reducer: @escaping (Value, Value) -> R
  ) {
    self.base = base
    self.toValue = toValue
    self.reducer = reducer
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffects = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return baseEffects }
    return .merge(
      baseEffects,
      reducer(oldValue, newValue).reduce(into: &state, action: action)
    )
  }
}
