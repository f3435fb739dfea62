/// Applies binding actions to the state: put it in a `body` before the reducers that react to
/// bindings, which then see the new value.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.name):
///       state.nameIsValid = !state.name.isEmpty
///       return .none
///     case .binding, .saveTapped:
///       return .none
///     }
///   }
/// }
/// ```
public struct BindingReducer<State, Action: Sendable, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  @usableFromInline let toViewAction: @Sendable (Action) -> ViewAction?

  /// Applies the binding actions of the reducer's own action (`Action: BindableAction`).
  @inlinable
  public init() where Action == ViewAction {
    toViewAction = { $0 }
  }

  /// Applies the binding actions found in one case of the action (`\.view` of an action whose
  /// `view` case is the `BindableAction`).
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) {
    let casePath = AnyCasePath(toViewAction)
    self.toViewAction = casePath.extract
  }

  /// Applies the binding actions found in one case of the action, named by the case key path
  /// of one case (`\.view`): the overload Swift picks for such a key path (see
  /// `CaseMemberKeyPath`).
  public init(action toViewAction: CaseMemberKeyPath<Action, ViewAction>)
  where Action: CasePathable {
    let casePath = AnyCasePath(toViewAction)
    self.toViewAction = casePath.extract
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let binding = toViewAction(action)?.binding else { return .none }
    binding.apply(to: &state)
    return .none
  }
}
