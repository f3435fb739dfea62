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
  func testDismissRunsTheParentWithTheChildThenNilsItAndCancelsItsEffects() async {
    let transcript = Transcript()
    let store = Store(initialState: Sheet.State()) { Sheet().transcribed(into: transcript) }
    store.send(.present)
    let task = store.send(.child(.presented(.start)))
    let ticking = await eventually { (store.child?.ticks ?? 0) > 0 }
    XCTAssertTrue(ticking)
    store.send(.child(.dismiss))
    await task.finish()
    XCTAssertNil(store.child)
    XCTAssertEqual(store.seenDismissWithChild, true)
    XCTAssertEqual(
      transcript.lines.filter { $0.contains("cancelled") },
      ["  E1 cancelled in step \(transcript.lines.filter { $0.hasPrefix("step") }.count): "
        + "teardown(presentation)"])
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
