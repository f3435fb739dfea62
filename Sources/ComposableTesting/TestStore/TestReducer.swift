import ComposableCore

/// Wraps the reducer under test: tags every action with where it came from and records what
/// the test store must assert.
struct TestReducer<Base: Reducer>: Reducer {
  typealias TestAction = TestStoreAction<Base.Action>

  let base: Base
  let log: TestLog<Base.State, Base.Action>

  func reduce(into state: inout Base.State, action: TestAction) -> Effect<TestAction> {
    let stackElementIDs = DependencyValues.current.stackElementID.incrementingCopy()
    let effects = base.reduce(into: &state, action: action.action)
    switch action.origin {
    case .send:
      log.stateAfterSend = state
    case let .receive(received):
      log.received.append(
        ReceivedAction(
          action: received, state: state, site: action.site, stackElementIDs: stackElementIDs))
    }
    return effects.map(TestStoreAction.received(site: action.site))
  }
}

/// An action as the test store's inner store sees it.
struct TestStoreAction<Action: Sendable>: Sendable {
  enum Origin: Sendable {
    /// Sent by the test with `send`.
    case send(Action)
    /// Sent by an effect.
    case receive(Action)
  }

  var origin: Origin
  /// The `send` that started the chain this action belongs to.
  var site: SendSite

  var action: Action {
    switch origin {
    case let .send(action), let .receive(action): action
    }
  }

  /// Tags the actions of effects started in the chain of `site`.
  static func received(site: SendSite) -> @Sendable (Action) -> TestStoreAction {
    { TestStoreAction(origin: .receive($0), site: site) }
  }
}

/// A `send` call of a test: what was sent and where.
struct SendSite: Sendable {
  var description: String
  var fileID: String
  var line: UInt
}

/// An action an effect sent, with the state right after it was reduced.
struct ReceivedAction<State, Action> {
  var action: Action
  var state: State
  var site: SendSite
  /// The stack element ids as they were before it was reduced (for the expectation).
  var stackElementIDs: StackElementIDGenerator
}

/// What the inner store did, for the test store to assert. Not sendable: it lives with the
/// inner store and the test store, on the main actor.
final class TestLog<State, Action> {
  var stateAfterSend: State?
  var received: [ReceivedAction<State, Action>] = []
}
