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
  private let cache = SessionCache<State, Action>()

  init(base: Base, recorder: Recorder) {
    self.base = base
    self.recorder = recorder
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let session = session(), session.isRecording else {
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
    if case .none = effect.node { return effect }
    return session.instrument(effect, step: step)
  }

  private func session() -> RecordingSession<State, Action>? {
    if let session = cache.session { return session }
    guard !cache.resolved else { return nil }
    cache.resolved = true
    let session = recorder.session(for: base)
    cache.session = session
    return session
  }
}

extension RecordingReducer: EffectCancellationObserving {
  package func effectsCancelled(_ cancellation: EffectCancellation) {
    cache.session?.effectsCancelled(cancellation)
    (base as? any EffectCancellationObserving)?.effectsCancelled(cancellation)
  }
}

extension RecordingReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .custom, typeName: "Recorder", children: [ComposableCore.reducerNode(of: base)])
  }
}

/// The session a `RecordingReducer` records into, looked up once (main actor only).
final class SessionCache<State: Encodable & Sendable, Action: Encodable & Sendable>:
  @unchecked Sendable
{
  var session: RecordingSession<State, Action>?
  var resolved = false
}
