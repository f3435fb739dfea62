import ComposableCore
import TraceKit

extension Reducer where State: Encodable & Sendable, Action: Encodable {
  /// Records the store this reducer runs in into `recorder`'s trace: every action, with the
  /// state after it, its effects and the dependency values it read.
  ///
  /// ```swift
  /// let store = Store(initialState: AppFeature.State()) {
  ///   AppFeature().recording(to: recorder)
  /// }
  /// ```
  ///
  /// Put it on the root reducer of one store; wrapping it further
  /// (`.dependency(\.uuid, .incrementing)`) or listing it in `CombineReducers` records the
  /// same. It cannot record a part of the state: inside a `Scope` it is reported and records
  /// nothing. The feature behaves exactly as without it.
  @inlinable
  public func recording(
    to recorder: Recorder,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> RecordingReducer<Self> {
    // Inlined into the app's module, which knows State and Action: the kit's code is
    // specialized there.
    RecordingReducer(
      base: self, recorder: recorder,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      kit: CaptureKit())
  }
}

/// A reducer that runs `Base` and brings the store it is part of a `Recorder`. Made by
/// `Reducer.recording(to:)`.
///
/// It reduces nothing itself: the store's core finds it when the store is created and tells
/// the recorder every step, effect and dependency read (see `StoreInstrument`), so what is
/// recorded does not depend on where it sits in the composition.
///
/// ```swift
/// let reducer: RecordingReducer<AppFeature> = AppFeature().recording(to: recorder)
/// ```
public struct RecordingReducer<Base: Reducer>: Reducer
where Base.State: Encodable & Sendable, Base.Action: Encodable {
  public typealias State = Base.State
  public typealias Action = Base.Action

  /// The recorded reducer.
  public let base: Base
  /// Where it is recorded.
  public let recorder: Recorder
  @usableFromInline let location: SourceLocation
  @usableFromInline let kit: CaptureKit<State, Action>

  @usableFromInline
  init(base: Base, recorder: Recorder, location: SourceLocation, kit: CaptureKit<State, Action>) {
    self.base = base
    self.recorder = recorder
    self.location = location
    self.kit = kit
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    base.reduce(into: &state, action: action)
  }
}

extension RecordingReducer: StoreInstrumentProviding {
  @MainActor
  package func makeInstrument<RootState, RootAction: Sendable>(for store: InstrumentedStore)
    -> (any StoreInstrument<RootState, RootAction>)?
  {
    guard RootState.self == State.self, RootAction.self == Action.self else {
      reportIssue(
        """
        A "recording(to:)" at "\(location)" records "\(qualifiedTypeName(State.self))", a \
        part of a store whose state is "\(qualifiedTypeName(RootState.self))": a Recorder \
        records the whole state of a store, so it \
        must wrap the store's root reducer (it may sit under ".dependency(…)" or in \
        "CombineReducers", not inside a "Scope"). Nothing is recorded.
        """,
        location: location
      )
      return nil
    }
    let tree = recorderTree(of: store, baseTypeName: String(describing: Base.self))
    let session = recorder.attach(kit: kit, tree: tree, at: location)
    return session as? any StoreInstrument<RootState, RootAction>
  }
}

extension RecordingReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .instrument, typeName: "Recorder")
  }

  package var childReducers: [any Reducer] { [base] }
}
