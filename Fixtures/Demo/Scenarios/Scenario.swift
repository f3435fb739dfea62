import ComposableCore

/// A feature and the script of a user driving it: what `record`, `run` and `replay` need.
///
/// ```swift
/// struct CounterScenario: Scenario {
///   func makeReducer() -> Counter { Counter() }
///   func nextAction(in state: Counter.State, random: inout DemoRandom) -> Counter.Action? {
///     random.chance(percent: 50) ? .plus : .loadMessageTapped
///   }
///   …
/// }
/// ```
protocol Scenario: Sendable {
  associatedtype Feature: Reducer
  where
    Feature.State: Codable & Equatable & Sendable,
    Feature.Action: Codable & Equatable & Sendable

  /// The name on the command line (`folder-tab`).
  var name: String { get }
  /// One line for `list`.
  var summary: String { get }
  /// The reducer the session runs (a buggy variant switches its bug in here).
  func makeReducer() -> Feature
  /// The reducer a trace of this scenario is replayed against: always the fixed one.
  func makeReplayReducer() -> Feature
  /// The state the session starts from.
  func initialState() -> Feature.State
  /// The actions a user sends first, in this order (e.g. `onAppear`).
  func openingActions() -> [Feature.Action]
  /// The next thing the user does, chosen from what the screen shows; `nil` to wait.
  func nextAction(in state: Feature.State, random: inout DemoRandom) -> Feature.Action?
  /// The longest pause between two user actions in a scripted session.
  var longestPause: Duration { get }
}

extension Scenario {
  func makeReplayReducer() -> Feature { makeReducer() }
  func openingActions() -> [Feature.Action] { [] }
  var longestPause: Duration { .milliseconds(800) }
}
