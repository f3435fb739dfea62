import ComposableCore

/// What a store does with the effect a reducer returned, read from the effect's structure
/// without running anything: the same walk `RootCore` makes when it launches an effect.
/// Typed replay compares it with what the trace recorded the store doing.
///
/// ```swift
/// // return .merge(
/// //   .cancel(id: "detail"), .run { … }.cancellable(id: "search", cancelInFlight: true))
/// let plan = EffectPlan(effect)
/// plan.cancellations  // [detail]            (performed while the reducer ran)
/// plan.events         // [.cancelInFlight(search), .start(run [search])]
/// ```
@usableFromInline
struct EffectPlan<Action: Sendable> {
  /// One thing launching an effect does, in the store's order.
  @usableFromInline
  enum Event {
    /// `.cancellable(id:cancelInFlight: true)` cancels what runs under `id` first.
    case cancelInFlight(EffectCancelID)
    /// A task the store starts.
    case start(PlannedEffect<Action>)
    /// An action a concatenation's task sends after an asynchronous part (only in
    /// `PlannedEffect.parts`).
    case send(Action)
  }

  /// `.cancel(id:)` and child teardowns, in order: a store performs them while the reducer
  /// runs, before anything is launched.
  @usableFromInline var cancellations: [(id: EffectCancelID, reason: EffectCancelReason)] = []
  /// What launching the effect does, in order.
  @usableFromInline var events: [Event] = []
  /// The synchronous `.send`s, in order: the store reduces them after the actions already
  /// waiting in its batch.
  @usableFromInline var sends: [Action] = []

  @inlinable
  init(_ effect: Effect<Action>) {
    if case .none = effect.node { return }
    collectCancellations(effect)
    launch(effect, ids: [], into: &events, sends: &sends, inTask: false)
  }

  /// Whether the effect asks for nothing at all.
  @inlinable
  var isEmpty: Bool { cancellations.isEmpty && events.isEmpty && sends.isEmpty }

  @inlinable
  mutating func collectCancellations(_ effect: Effect<Action>) {
    switch effect.node {
    case .none, .send, .run:
      return
    case .merge(let children), .concatenate(let children):
      for child in children { collectCancellations(child) }
    case .cancellable(_, _, let child):
      collectCancellations(child)
    case .cancel(let id, let reason, _):
      cancellations.append((id, reason))
    }
  }

  /// `RootCore.launch`: what starting `effect` does now. In a concatenation's task (`inTask`)
  /// a `.send` is sent by that task instead of joining the batch.
  @inlinable
  func launch(
    _ effect: Effect<Action>, ids: [EffectCancelID], into events: inout [Event],
    sends: inout [Action], inTask: Bool
  ) {
    switch effect.node {
    case .none, .cancel:
      // A `.cancel` was performed while the reducer ran (see `cancellations`).
      return
    case .send(let action):
      if inTask {
        events.append(.send(action))
      } else {
        sends.append(action)
      }
    case .run(let run):
      events.append(
        .start(PlannedEffect(kind: .run, cancelIDs: ids, location: run.location, parts: [])))
    case .merge(let children):
      for child in children {
        launch(child, ids: ids, into: &events, sends: &sends, inTask: inTask)
      }
    case .concatenate(let children):
      var remaining = children[...]
      // Leading synchronous parts happen now, as the store does them.
      while let first = remaining.first, first.isSynchronous {
        launch(first, ids: ids, into: &events, sends: &sends, inTask: inTask)
        remaining = remaining.dropFirst()
      }
      guard !remaining.isEmpty else { return }
      var parts: [Event] = []
      for part in remaining { execute(part, ids: ids, into: &parts) }
      events.append(
        .start(PlannedEffect(kind: .concatenation, cancelIDs: ids, location: nil, parts: parts)))
    case .cancellable(let id, let cancelInFlight, let child):
      if cancelInFlight { events.append(.cancelInFlight(id)) }
      launch(child, ids: ids + [id], into: &events, sends: &sends, inTask: inTask)
    }
  }

  /// `RootCore.execute`: what a concatenation's task does for one of its parts.
  @inlinable
  func execute(_ effect: Effect<Action>, ids: [EffectCancelID], into parts: inout [Event])
  {
    switch effect.node {
    case .concatenate(let children):
      for child in children { execute(child, ids: ids, into: &parts) }
    case .cancellable(let id, let cancelInFlight, let child):
      if cancelInFlight { parts.append(.cancelInFlight(id)) }
      execute(child, ids: ids + [id], into: &parts)
    default:
      var unused: [Action] = []
      launch(effect, ids: ids, into: &parts, sends: &unused, inTask: true)
    }
  }
}

/// A task the store starts for an effect: a `.run`, or the task that runs a concatenation's
/// parts after its first asynchronous one.
@usableFromInline
struct PlannedEffect<Action: Sendable> {
  @usableFromInline var kind: EffectLaunch.Kind
  /// The cancellation ids it is registered under, outermost first.
  @usableFromInline var cancelIDs: [EffectCancelID]
  /// Where `Effect.run` was called (nil for a concatenation).
  @usableFromInline var location: SourceLocation?
  /// For a concatenation: what its task does, part after part. Its `.start`s are the tasks
  /// the trace records with this one as their parent.
  @usableFromInline var parts: [EffectPlan<Action>.Event]

  @inlinable
  init(
    kind: EffectLaunch.Kind, cancelIDs: [EffectCancelID], location: SourceLocation?,
    parts: [EffectPlan<Action>.Event]
  ) {
    self.kind = kind
    self.cancelIDs = cancelIDs
    self.location = location
    self.parts = parts
  }
}
