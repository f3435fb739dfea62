/// A feature's logic: how an action changes the state, and which effects it starts.
///
/// Implement either `reduce(into:action:)` or `body`:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Equatable, Sendable { case plus }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The state the reducer works on.
  associatedtype State
  /// The actions it handles.
  associatedtype Action: Sendable
  /// The type of `body`; `Never` for reducers that implement `reduce(into:action:)`.
  associatedtype Body

  /// Changes `state` for `action` and returns the effects to run.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this reducer is made of, run in order on the same state.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A reducer with the state and action of another: `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body; nothing in the library
  /// reads it, and reading it is a programming error.
  public var body: Body {
    fatalError(
      """
      "\(Self.self)" has no "body": it implements "reduce(into:action:)". Do not read \
      "body" of a reducer that implements "reduce(into:action:)".
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs `body`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}
