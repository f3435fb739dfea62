import ComposableCore
import Observation
import XCTest

/// A feature whose actions reach the store every way an action can.
private struct Origins: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var child = Counter.State()
  }

  enum Action: Equatable, Sendable {
    case start, b, c, d
    case concat, partA, partB
    case merge, one, two
    case reenter
    case child(Counter.Action)
  }

  let gate: Gate
  let holder: OriginsHolder

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .originsChild) { Counter() }
    Reduce { state, action in
      state.count += 1
      switch action {
      case .start:
        return .merge(.send(.b), .send(.c))
      case .b:
        return .send(.d)
      case .concat:
        return .concatenate(.run { send in await send(.partA) }, .send(.partB))
      case .merge:
        let gate = self.gate
        return .merge(
          .run { send in
            await gate.wait()
            await send(.one)
          },
          .run { send in await send(.two) }
        )
      case .reenter:
        MainActor.assumeIsolated { _ = holder.store?.send(.b) }
        return .none
      case .c, .d, .partA, .partB, .one, .two, .child:
        return .none
      }
    }
  }
}

extension AnyCasePath where Root == Origins.Action, Value == Counter.Action {
  fileprivate static var originsChild: Self {
    .init(Root.child) { if case let .child(action) = $0 { action } else { nil } }
  }
}

@MainActor
private final class OriginsHolder {
  var store: Store<Origins.State, Origins.Action>?
}

@MainActor
final class OriginTranscriptTests: XCTestCase {
  private let gate = Gate()
  private let holder = OriginsHolder()
  private let transcript = Transcript()

  private func makeStore() -> Store<Origins.State, Origins.Action> {
    let store = Store(initialState: Origins.State()) {
      Origins(gate: gate, holder: holder).transcribed(into: transcript)
    }
    holder.store = store
    return store
  }

  func testTheStoreIsToldOfItsCreationAndEachUserSend() {
    let store = makeStore()
    store.send(.c)
    store.send(.d)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .c
      end of step 1
      step 2 from user: .d
      end of step 2
      """)
  }

  func testSynchronousSendsNameTheStepThatReturnedThemBreadthFirst() {
    let store = makeStore()
    store.send(.start)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .start
      end of step 1
      step 2 from .send of step 1: .b
      end of step 2
      step 3 from .send of step 1: .c
      end of step 3
      step 4 from .send of step 2: .d
      end of step 4
      """)
  }

  func testAnActionFromAMappedEffectComesFromThatEffect() async {
    let store = makeStore()
    await store.send(.child(.load)).finish()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .child(.load)
      end of step 1
      E1 started by step 1: run
      step 2 from E1: .child(.loaded("ok"))
      end of step 2
      E1 finished
      """)
  }

  func testConcatenationPartsAndTheSendAfterAnAsynchronousPart() async {
    let store = makeStore()
    await store.send(.concat).finish()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .concat
      end of step 1
      E1 started by step 1: concatenation
      E2 started by step 1: run in E1
      step 2 from E2: .partA
      end of step 2
      E2 finished
      step 3 from E1: .partB
      end of step 3
      E1 finished
      """)
  }

  func testMergedEffectsEachSendAsThemselves() async {
    let store = makeStore()
    let task = store.send(.merge)
    let secondDone = await eventually { self.transcript.lines.contains("E2 finished") }
    XCTAssertTrue(secondDone)
    gate.open()
    await task.finish()
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .merge
      end of step 1
      E1 started by step 1: run
      E2 started by step 1: run
      step 2 from E2: .two
      end of step 2
      E2 finished
      step 3 from E1: .one
      end of step 3
      E1 finished
      """)
  }

  func testAReentrantSendFromAReducerIsFromTheUser() {
    let store = makeStore()
    let (_, issues) = withIssueCollection { store.send(.reenter) }
    XCTAssertEqual(issues.count, 1)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .reenter
      end of step 1
      step 2 from user: .b
      end of step 2
      step 3 from .send of step 2: .d
      end of step 3
      """)
  }

  func testASendFromAnObservationCallbackIsFromTheObserver() {
    let store = makeStore()
    withObservationTracking {
      _ = store.count
    } onChange: {
      MainActor.assumeIsolated { _ = store.send(.d) }
    }
    store.send(.c)
    store.send(.c)
    XCTAssertEqual(
      transcript.text,
      """
      store started
      step 1 from user: .c
      end of step 1
      step 2 from observer: .d
      end of step 2
      step 3 from user: .c
      end of step 3
      """)
  }

  func testAnInspectorSendIsFromTheInspector() {
    let store = makeStore()
    store.send(.c, origin: .inspector)
    XCTAssertEqual(
      transcript.lines.suffix(2), ["step 1 from inspector: .c", "end of step 1"])
  }

  func testTheInstrumentIsFoundWhereverItSitsInTheComposition() {
    let wrapped = Transcript()
    _ = Store(initialState: Origins.State()) {
      CombineReducers {
        EmptyReducer<Origins.State, Origins.Action>()
        Origins(gate: gate, holder: holder).transcribed(into: wrapped)
      }
      .dependency(\.uuid, .incrementing)
    }
    let erased = Transcript()
    _ = Store(initialState: Origins.State()) {
      Reduce<Origins.State, Origins.Action>(
        Origins(gate: gate, holder: holder).transcribed(into: erased))
    }
    XCTAssertEqual(wrapped.lines, ["store started"])
    XCTAssertEqual(erased.lines, ["store started"])
  }
}
