import ComposableCore
import ComposableTesting
import XCTest

/// A parent presenting a sheet whose child runs a long effect.
private struct Sheet: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Row.State?
    var seenDismissWithChild: Bool?
  }

  enum Action: Equatable, Sendable {
    case child(PresentationAction<Row.Action>)
    case present
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .present:
        state.child = Row.State(id: 1)
        return .none
      case .child(.dismiss):
        state.seenDismissWithChild = state.child != nil
        return .none
      case .child:
        return .none
      }
    }
    .ifLet(\.$child, action: .child) { Row() }
  }
}

extension AnyCasePath where Root == Sheet.Action, Value == PresentationAction<Row.Action> {
  fileprivate static var child: Self {
    .init(Root.child) { if case let .child(action) = $0 { action } else { nil } }
  }
}

@MainActor
final class PresentationTests: XCTestCase {
  func testDismissNilsStateBeforeParentAndCancelsChildEffects() async {
    let log = CancellationLog()
    let store = Store(initialState: Sheet.State()) { Sheet() }
    (store.core as? RootCore<Sheet>)?.observeCancellations { log.events.append($0) }
    store.send(.present)
    let task = store.send(.child(.presented(.start)))
    let ticking = await eventually { (store.child?.ticks ?? 0) > 0 }
    XCTAssertTrue(ticking)
    store.send(.child(.dismiss))
    await task.finish()
    XCTAssertNil(store.child)
    XCTAssertEqual(store.seenDismissWithChild, false)
    XCTAssertEqual(log.reasons, [.teardown(.presentation)])
    XCTAssertEqual(log.events.first?.effectIDs.count, 1)
  }

  func testPresentedActionWhileDismissedIsReported() {
    let store = Store(initialState: Sheet.State()) { Sheet() }
    let (_, issues) = withIssueCollection {
      store.send(.child(.presented(.tick)))
    }
    XCTAssertEqual(
      issues.first?.message.components(separatedBy: "\n").first,
      """
      An "ifLet" at "ComposableCoreTests/PresentationTests.swift:30" received a presentation \
      action when destination state was absent.
      """
    )
  }
}
