import ComposableCore
import TraceKit

/// What a store does with the effect a reducer returned, read from the effect's structure
/// without running anything: the same walk `RootCore` makes when it launches an effect.
/// Typed replay compares it with what the trace recorded the store doing. The tasks it starts
/// are built as `EffectShape`s during the walk, the actions a concatenation's task sends
/// encoded with `encode` as they are met.
///
/// ```swift
/// // return .merge(
/// //   .cancel(id: "detail"), .run { … }.cancellable(id: "search", cancelInFlight: true))
/// let plan = try EffectPlan(effect, encode: encode)
/// plan.cancellations  // [detail]            (performed while the reducer ran)
/// plan.events         // [.cancelInFlight(search), .start(run [search])]
/// ```
@usableFromInline
struct EffectPlan<Action: Sendable> {
  /// `.cancel(id:)` and child teardowns, in order: a store performs them while the reducer
  /// runs, before anything is launched.
  @usableFromInline var cancellations: [(id: EffectCancelID, reason: EffectCancelReason)] = []
  /// What launching the effect does, in order.
  @usableFromInline var events: [EffectShape.Event] = []
  /// The synchronous `.send`s, in order: the store reduces them after the actions already
  /// waiting in its batch.
  @usableFromInline var sends: [Action] = []

  @inlinable
  init(
    _ effect: Effect<Action>, encode: (Action) throws(ReplayError) -> TraceValue
  ) throws(ReplayError) {
    if case .none = effect.node { return }
    collectCancellations(effect)
    var unused: [TraceValue] = []
    try Self.launch(
      effect, ids: [], into: &events, sends: &sends, taskSends: &unused, inTask: false,
      encode: encode)
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
  /// a `.send` is sent by that task (`taskSends`, encoded) instead of joining the batch
  /// (`sends`).
  @inlinable
  static func launch(
    _ effect: Effect<Action>, ids: [EffectCancelID], into events: inout [EffectShape.Event],
    sends: inout [Action], taskSends: inout [TraceValue], inTask: Bool,
    encode: (Action) throws(ReplayError) -> TraceValue
  ) throws(ReplayError) {
    switch effect.node {
    case .none, .cancel:
      // A `.cancel` was performed while the reducer ran (see `cancellations`).
      return
    case .send(let action):
      if inTask {
        taskSends.append(try encode(action))
      } else {
        sends.append(action)
      }
    case .run(let run):
      append(
        .start(
          EffectShape(kind: .run, cancelIDs: ids, location: run.location, events: [], sends: [])
        ), to: &events)
    case .merge(let children):
      for child in children {
        try launch(
          child, ids: ids, into: &events, sends: &sends, taskSends: &taskSends, inTask: inTask,
          encode: encode)
      }
    case .concatenate(let children):
      var remaining = children[...]
      // Leading synchronous parts happen now, as the store does them.
      while let first = remaining.first, first.isSynchronous {
        try launch(
          first, ids: ids, into: &events, sends: &sends, taskSends: &taskSends, inTask: inTask,
          encode: encode)
        remaining = remaining.dropFirst()
      }
      guard !remaining.isEmpty else { return }
      var parts: [EffectShape.Event] = []
      var partSends: [TraceValue] = []
      for part in remaining {
        try execute(part, ids: ids, into: &parts, sends: &partSends, encode: encode)
      }
      append(
        .start(
          EffectShape(
            kind: .concatenation, cancelIDs: ids, location: nil, events: parts, sends: partSends)
        ), to: &events)
    case .cancellable(let id, let cancelInFlight, let child):
      if cancelInFlight { append(.cancelInFlight(id), to: &events) }
      try launch(
        child, ids: EffectCancelID.nested(ids, id), into: &events, sends: &sends,
        taskSends: &taskSends, inTask: inTask, encode: encode)
    }
  }

  /// Appends `event`, the first into room for four: a plan's lists hold one event or a few
  /// (a cancel in flight and its task; a debounce's two parts), and an empty array grew
  /// through the general reallocation at its first append and again at its second.
  @inlinable
  static func append(_ event: EffectShape.Event, to events: inout [EffectShape.Event]) {
    if events.capacity == 0 { events.reserveCapacity(4) }
    events.append(event)
  }

  /// `RootCore.execute`: what a concatenation's task does for one of its parts. Its `.start`s
  /// are the tasks the trace records with this one as their parent.
  @inlinable
  static func execute(
    _ effect: Effect<Action>, ids: [EffectCancelID], into parts: inout [EffectShape.Event],
    sends: inout [TraceValue], encode: (Action) throws(ReplayError) -> TraceValue
  ) throws(ReplayError) {
    switch effect.node {
    case .concatenate(let children):
      for child in children {
        try execute(child, ids: ids, into: &parts, sends: &sends, encode: encode)
      }
    case .cancellable(let id, let cancelInFlight, let child):
      if cancelInFlight { append(.cancelInFlight(id), to: &parts) }
      try execute(
        child, ids: EffectCancelID.nested(ids, id), into: &parts, sends: &sends, encode: encode)
    default:
      var unused: [Action] = []
      try launch(
        effect, ids: ids, into: &parts, sends: &unused, taskSends: &sends, inTask: true,
        encode: encode)
    }
  }
}
