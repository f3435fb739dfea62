import ComposableCore
import TraceKit

extension Reducer where State: Encodable & Sendable, Action: Encodable {
  /// Records every action this reducer handles, with the state after it, its effects and the
  /// dependency values it read, into `recorder`'s trace.
  ///
  /// ```swift
  /// let store = Store(initialState: AppFeature.State()) {
  ///   AppFeature().recording(to: recorder)
  /// }
  /// ```
  ///
  /// Apply it to the root reducer of one store. The feature behaves exactly as without it.
  public func recording(to recorder: Recorder) -> RecordingReducer<Self> {
    RecordingReducer(base: self, recorder: recorder)
  }
}

/// A reducer that runs `Base` and records each step into a `Recorder`. Made by
/// `Reducer.recording(to:)`.
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
  /// The session this reducer records into; nil when the recorder already records another
  /// store or was finished.
  @usableFromInline let session: RecordingSession<State, Action>?

  init(base: Base, recorder: Recorder) {
    self.base = base
    self.recorder = recorder
    session = recorder.session(for: base)
  }

  // Inlinable so that the app module specializes the hot path for its own State and Action:
  // unspecialized, each generic type in it cost a metadata lookup per send.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let session, session.isRecording else {
      return base.reduce(into: &state, action: action)
    }
    let (origin, sender, syncSend) = session.beginStep(stateBefore: state)
    let start = MonotonicClock.nanoseconds()
    let (effect, reads) = session.dependencies.run {
      base.reduce(into: &state, action: action)
    }
    let end = MonotonicClock.nanoseconds()
    let step = session.finishStep(
      action: action, state: state, origin: origin, sender: sender, syncSend: syncSend,
      start: start, end: end, dependencies: reads)
    return session.instrument(effect, step: step)
  }
}

extension RecordingReducer: EffectCancellationObserving {
  package func effectsCancelled(_ cancellation: EffectCancellation) {
    session?.effectsCancelled(cancellation)
    (base as? any EffectCancellationObserving)?.effectsCancelled(cancellation)
  }
}

extension RecordingReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .custom, typeName: "Recorder", children: [ComposableCore.reducerNode(of: base)])
  }
}
