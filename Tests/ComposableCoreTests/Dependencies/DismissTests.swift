import ComposableCore
import ComposableTesting
import XCTest

/// A presented note that closes itself.
private struct Note: Reducer {
  struct State: Equatable {}

  enum Action: Equatable, Sendable {
    case closeTapped
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in await dismiss() }
  }
}

/// A presented feature that closes itself, and that can present a note.
private struct Editor: Reducer {
  struct State: Equatable {
    var saved = false
    var wasPresented: Bool?
    @PresentationState var nested: Note.State?
  }

  enum Action: Equatable, Sendable {
    case closeTapped, saveTapped, saved, checkPresented
    case openNested
    case nested(PresentationAction<Note.Action>)
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeTapped:
        return .run { _ in await dismiss() }
      case .saveTapped:
        return .run { send in
          await send(.saved)
          await dismiss()
          // Dismissed: the effect was cancelled, so this is ignored.
          await send(.saved)
        }
      case .saved:
        state.saved = true
        return .none
      case .checkPresented:
        state.wasPresented = isPresented
        return .none
      case .openNested:
        state.nested = Note.State()
        return .none
      case .nested:
        return .none
      }
    }
    .ifLet(\.$nested, action: AnyCasePath(Action.nested) {
      if case let .nested(action) = $0 { action } else { nil }
    }) {
      Note()
    }
  }
}

private struct Host: Reducer {
  struct State: Equatable {
    @PresentationState var editor: Editor.State?
  }

  enum Action: Equatable, Sendable {
    case open
    case editor(PresentationAction<Editor.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .open = action { state.editor = Editor.State() }
      return .none
    }
    .ifLet(\.$editor, action: AnyCasePath(Action.editor) {
      if case let .editor(action) = $0 { action } else { nil }
    }) {
      Editor()
    }
  }
}

/// A row that notes whether it runs presented.
private struct Probe: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var wasPresented: Bool?
  }

  enum Action: Equatable, Sendable {
    case check
  }

  @Dependency(\.isPresented) var isPresented

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.wasPresented = isPresented
    return .none
  }
}

/// Probes in `forEach` rows.
private struct ProbeRows: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Probe.State> = [Probe.State(id: 1)]
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Probe.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: AnyCasePath(Action.rows) {
        if case let .rows(action) = $0 { action } else { nil }
      }) {
        Probe()
      }
  }
}

/// Rows at the root (in a `Scope`) and the same rows in a presented sheet.
private struct ProbeHost: Reducer {
  struct State: Equatable {
    var list = ProbeRows.State()
    @PresentationState var sheet: ProbeRows.State?
  }

  enum Action: Equatable, Sendable {
    case list(ProbeRows.Action)
    case sheet(PresentationAction<ProbeRows.Action>)
    case open
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.list, action: AnyCasePath(Action.list) {
      if case let .list(action) = $0 { action } else { nil }
    }) {
      ProbeRows()
    }
    Reduce { state, action in
      if case .open = action { state.sheet = ProbeRows.State() }
      return .none
    }
    .ifLet(\.$sheet, action: AnyCasePath(Action.sheet) {
      if case let .sheet(action) = $0 { action } else { nil }
    }) {
      ProbeRows()
    }
  }
}

@MainActor
final class DismissTests: XCTestCase {
  func testDismissFromAPresentedFeaturesEffectSendsItsDismissal() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.open) { $0.editor = Editor.State() }
    await store.send(.editor(.presented(.closeTapped)))
    await store.receive(.editor(.dismiss)) { $0.editor = nil }
    await store.finish()
  }

  func testAnEffectThatDismissedIsCancelled() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.open) { $0.editor = Editor.State() }
    await store.send(.editor(.presented(.saveTapped)))
    await store.receive(.editor(.presented(.saved))) { $0.editor?.saved = true }
    await store.receive(.editor(.dismiss)) { $0.editor = nil }
    await store.finish()
  }

  func testANestedPresentationDismissesTheInnermostFeature() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.open) { $0.editor = Editor.State() }
    await store.send(.editor(.presented(.openNested))) { $0.editor?.nested = Note.State() }
    await store.send(.editor(.presented(.nested(.presented(.closeTapped)))))
    await store.receive(.editor(.presented(.nested(.dismiss)))) { $0.editor?.nested = nil }
    await store.finish()
  }

  func testIsPresentedTellsWhetherTheReducerRunsPresented() async {
    let host = TestStore(initialState: Host.State()) { Host() }
    await host.send(.open) { $0.editor = Editor.State() }
    await host.send(.editor(.presented(.checkPresented))) { $0.editor?.wasPresented = true }

    let root = TestStore(initialState: Editor.State()) { Editor() }
    await root.send(.checkPresented) { $0.wasPresented = false }
  }

  func testIsPresentedHoldsForThePresentedFeaturesChildrenAndNotForRowsAtTheRoot() async {
    let store = TestStore(initialState: ProbeHost.State()) { ProbeHost() }
    await store.send(.list(.rows(.element(id: 1, action: .check)))) {
      $0.list.rows[id: 1]?.wasPresented = false
    }
    await store.send(.open) { $0.sheet = ProbeRows.State() }
    await store.send(.sheet(.presented(.rows(.element(id: 1, action: .check))))) {
      $0.sheet?.rows[id: 1]?.wasPresented = true
    }
  }

  func testDismissOutsideAPresentedFeatureIsReported() async {
    let store = Store(initialState: Editor.State()) { Editor() }
    let (_, issues) = await withIssueCollection {
      await store.send(.closeTapped).finish()
    }
    XCTAssertEqual(issues.count, 1)
    let message = issues.first?.message ?? ""
    XCTAssertTrue(
      message.hasPrefix(
        "A reducer requested dismissal at \"ComposableCoreTests/DismissTests.swift:"),
      message)
    XCTAssertTrue(
      message.hasSuffix(
        """
        ", but couldn't be dismissed.

        This can happen when a reducer assumes it runs in a presentation context (a destination \
        of "ifLet" on "PresentationState", or an element of a navigation stack) while it runs \
        elsewhere, or when "dismiss" is called outside the effect of such a reducer. If a \
        reducer can run both at the root and presented, check @Dependency(\\.isPresented) \
        before calling @Dependency(\\.dismiss).
        """), message)
  }
}

