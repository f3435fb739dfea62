import Locking

extension Effect {
  /// The effect, with the actions it sends throttled: at most one action per `interval` for
  /// all effects with this id; one arriving sooner waits for the end of the interval, and a
  /// newer throttled effect with the same id cancels the one waiting.
  ///
  /// ```swift
  /// case let .scrolled(offset):
  ///   return .send(.loadMore(offset))
  ///     .throttle(id: CancelID.loadMore, for: .seconds(1), latest: true)
  /// ```
  ///
  /// As upstream: the first action is sent at once; an action within the interval is sent at
  /// its end — the newest one (`latest: true`) or the first one that arrived in the interval
  /// (`latest: false`) — and the whole effect is `cancellable(id:cancelInFlight: true)`.
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value; scoped by the store and the navigation path.
  ///   - interval: The shortest time between two actions.
  ///   - clock: The clock to measure on; the `continuousClock` dependency in force when the
  ///     effect is created when omitted.
  ///   - latest: Send the newest action of an interval (`true`) or the first (`false`).
  public func throttle(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: (any Clock<Duration>)? = nil,
    latest: Bool
  ) -> Self {
    if case .none = node { return .none }
    let clock = clock ?? DependencyValues.inForce.continuousClock
    let gate = ThrottleGate<Action>(
      id: EffectCancelID(
        id: AnyHashableSendable(id), navigationIDPath: DependencyValues.inForce.navigationIDPath),
      interval: interval,
      clock: clock,
      latest: latest
    )
    return throttled(through: gate).cancellable(id: id, cancelInFlight: true)
  }

  /// The effect with every action it sends passed through `gate`.
  private func throttled(through gate: ThrottleGate<Action>) -> Self {
    switch node {
    case .none, .cancel:
      return self
    case let .send(action):
      return Effect(node: .run(Run(priority: nil, location: nil) { send in
        await gate.pass(action, to: send)
      }))
    case let .run(run):
      let operation = run.operation
      return Effect(node: .run(run.running { send in
        // The operation sends into a stream; the actions leave it through the gate, one
        // after another, while the operation goes on.
        let (actions, continuation) = AsyncStream<Action>.makeStream()
        await withTaskGroup(of: Void.self) { group in
          group.addTask {
            await operation(Send { continuation.yield($0) })
            continuation.finish()
          }
          for await action in actions {
            await gate.pass(action, to: send)
          }
        }
      }))
    case let .merge(children):
      return Effect(node: .merge(children.map { $0.throttled(through: gate) }))
    case let .concatenate(children):
      return Effect(node: .concatenate(children.map { $0.throttled(through: gate) }))
    case let .cancellable(id, cancelInFlight, child):
      return Effect(
        node: .cancellable(id: id, cancelInFlight: cancelInFlight, child.throttled(through: gate))
      )
    }
  }
}

/// Decides when a throttled action is sent, from the last time an action with the same id was
/// sent in the same store (the `ThrottleTimes` of its `EffectScope`).
struct ThrottleGate<Action: Sendable>: Sendable {
  let id: EffectCancelID
  let interval: Duration
  let clock: any Clock<Duration>
  let latest: Bool

  /// Sends `action` (or the action it stands in for) now or at the end of the interval;
  /// returns early, sending nothing, when the effect is cancelled while waiting.
  func pass(_ action: Action, to send: Send<Action>) async {
    await pass(action, to: send, on: clock)
  }

  private func pass<C: Clock<Duration>>(_ action: Action, to send: Send<Action>, on clock: C)
    async
  {
    let times = (EffectScope.current ?? .outsideStores).throttleTimes
    let now = clock.now
    let decision: (value: Action, deadline: C.Instant?) = times.update(id) {
      entry in
      guard let last = entry.lastSent as? C.Instant else {
        entry = ThrottleTimes.Entry(lastSent: now, pending: nil)
        return (action, nil)
      }
      let value = latest ? action : (entry.pending as? Action) ?? action
      guard last.duration(to: now) < interval else {
        entry = ThrottleTimes.Entry(lastSent: now, pending: nil)
        return (value, nil)
      }
      entry.pending = value
      return (value, last.advanced(by: interval))
    }
    if let deadline = decision.deadline {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return
      }
      let sentAt = clock.now
      times.update(id) { entry in
        entry = ThrottleTimes.Entry(lastSent: sentAt, pending: nil)
      }
    }
    await send(decision.value)
  }
}

/// When each throttle id of a store last let an action through, and the action waiting.
final class ThrottleTimes: Sendable {
  struct Entry: Sendable {
    /// The clock's instant of the last action sent (`nil` before the first).
    var lastSent: (any Sendable)?
    /// The action that will be sent at the end of the interval.
    var pending: (any Sendable)?
  }

  private let entries = Lock<[EffectCancelID: Entry]>([:])

  func update<R>(_ key: EffectCancelID, _ body: (inout Entry) -> R) -> R {
    entries.withLock { entries in
      body(&entries[key, default: Entry()])
    }
  }
}
