import ComposableCore
import Foundation
import TraceKit

/// The background half of a recording: encodes, diffs, hashes and writes what the main actor
/// captured, committing at least every flush interval.
///
/// ```swift
/// let writer = StepWriter<S, A>(session: session, tree: tree)
/// Thread { writer.run() }.start()
/// ```
final class StepWriter<State: Encodable & Sendable, Action: Encodable & Sendable>: @unchecked
  Sendable
{
  private let session: RecordingSession<State, Action>
  private let tree: RecorderTree
  private var trace: TraceWriter?
  /// The history live attach keeps in memory: it gets every record the trace gets.
  private let live: LiveHistory?
  private var encoder = IncrementalEncoder<State>()
  private let stateRedaction: Redaction
  private let actionEncoder = TraceValueEncoder()
  private let actionRedaction: Redaction
  /// The last action and its encoding: repeated actions (ticks, increments) are encoded once.
  private var lastAction: (action: Action, value: TraceValue, path: String)?
  private var isDirty = false
  private var failed = false
  private var lastFlush: UInt64 = 0
  private let flushNanos: UInt64

  init(session: RecordingSession<State, Action>, tree: RecorderTree) {
    self.session = session
    self.tree = tree
    live = session.live?.history
    let configuration = session.configuration
    stateRedaction = Redaction(paths: configuration.redactedStatePaths)
    actionRedaction = Redaction(paths: configuration.redactedActionPaths)
    let interval = configuration.flushInterval.components
    flushNanos = UInt64(max(0, interval.seconds)) * 1_000_000_000
      + UInt64(max(0, interval.attoseconds / 1_000_000_000))
  }

  /// The writer thread's loop; returns after `.finish`.
  func run() {
    // The session owns the queue and outlives this loop: `finish()` waits for it.
    let queue = session.queue
    let timeout = session.configuration.flushInterval
    let hook = session.configuration.writerWillTake
    while true {
      hook?()
      let events = queue.take(timeout: timeout)
      for event in events {
        if case .finish(let gap, let effects, let done) = event {
          for effect in effects where !failed {
            do throws(WriteFailure) {
              try process(.effect(effect))
            } catch {
              fail(error)
            }
          }
          close(trailingGap: gap)
          session.liveEnded("finished")
          done.signal()
          return
        }
        guard !failed else { continue }
        do throws(WriteFailure) {
          try process(event)
        } catch {
          fail(error)
        }
      }
      let wasIdle = events.isEmpty
      queue.recycle(events)
      guard !failed, isDirty else { continue }
      let now = MonotonicClock.nanoseconds()
      if wasIdle || now &- lastFlush >= flushNanos {
        do throws(WriteFailure) {
          try write(step: nil) { trace throws(TraceError) in try trace.flush() }
          lastFlush = now
          isDirty = false
        } catch {
          fail(error)
        }
      }
    }
  }

  private struct WriteFailure: Error {
    var step: Int?
    var message: String
  }

  private func fail(_ failure: WriteFailure) {
    failed = true
    trace = nil
    session.fail(
      RecorderError(
        path: session.path ?? "memory", step: failure.step, message: failure.message))
  }

  private func write(step: Int?, _ body: (TraceWriter) throws(TraceError) -> Void)
    throws(WriteFailure)
  {
    guard let trace else { return }
    do {
      try body(trace)
    } catch {
      throw WriteFailure(step: step ?? error.step, message: error.description)
    }
  }

  private func process(_ event: SessionEvent<State, Action>) throws(WriteFailure) {
    isDirty = true
    switch event {
    case .start(let state, let wallTime):
      try start(state: state, wallTime: wallTime)
    case .step(let step):
      try append(step)
    case .inspectorStep(let facts, let state):
      try appendInspectorStep(facts, state: state)
    case .effect(.started(let effect)):
      let record = EffectRecord(
        id: effect.id, startedByStep: effect.startedByStep,
        cancelID: effect.cancelIDs.isEmpty
          ? nil : effect.cancelIDs.map(\.description).joined(separator: ", "),
        file: effect.location?.fileID, line: effect.location.map { Int($0.line) },
        startNanos: effect.startNanos)
      try write(step: effect.startedByStep) { trace throws(TraceError) in
        try trace.effectStarted(record)
      }
      live?.effectStarted(record)
    case .effect(.ended(let id, let nanos, let outcome)):
      try write(step: nil) { trace throws(TraceError) in
        try trace.effectEnded(id: id, endNanos: nanos, outcome: outcome)
      }
      live?.effectEnded(id: id, endNanos: nanos, outcome: outcome)
    case .finish:
      break
    }
  }

  private func start(state: State, wallTime: Double) throws(WriteFailure) {
    var initial: TraceValue
    do {
      initial = try encoder.encode(state).value
      stateRedaction.apply(to: &initial)
    } catch {
      throw WriteFailure(step: 0, message: "the initial state could not be encoded: \(error)")
    }
    let metadata = TraceMetadata(
      rootReducer: tree.rootTypeName, stateType: String(reflecting: State.self),
      actionType: String(reflecting: Action.self),
      keyframeInterval: session.configuration.keyframeInterval,
      extra: session.configuration.extra.merging(
        RecorderMetadata.entries(session.configuration), uniquingKeysWith: { $1 }))
    if let path = session.path {
      do {
        let writer = try TraceWriter(
          path: path, metadata: metadata, initialState: initial, wallTime: wallTime)
        trace = writer
        try writer.writeTree(tree.node)
      } catch {
        throw WriteFailure(step: 0, message: error.description)
      }
    }
    live?.start(metadata: metadata, wallTime: wallTime, initialState: initial, tree: tree.node)
    lastFlush = MonotonicClock.nanoseconds()
  }

  private func append(_ captured: CapturedStep<State, Action>) throws(WriteFailure) {
    let action: TraceValue
    let actionPath: String
    do {
      if let last = lastAction, Equality.same(last.action, captured.action) {
        action = last.value
        actionPath = last.path
      } else {
        var encodedAction = try actionEncoder.encode(captured.action)
        actionPath = ActionCasePath.path(of: encodedAction)
        actionRedaction.apply(to: &encodedAction)
        action = encodedAction
        lastAction = (captured.action, encodedAction, actionPath)
      }
    } catch {
      throw WriteFailure(step: captured.facts.step, message: "encoding failed: \(error)")
    }
    try append(captured.state, facts: captured.facts, action: action, actionPath: actionPath)
  }

  /// A jump or a continue of an attached inspector: a step with no action.
  private func appendInspectorStep(_ facts: StepFacts, state: State) throws(WriteFailure) {
    try append(state, facts: facts, action: .null, actionPath: "")
  }

  /// Encodes the state after a step and writes the step.
  private func append(
    _ state: State, facts: StepFacts, action: TraceValue, actionPath: String
  ) throws(WriteFailure) {
    let encoded: IncrementalEncoder<State>.Result
    do {
      encoded = try encoder.encode(state)
    } catch {
      throw WriteFailure(step: facts.step, message: "encoding failed: \(error)")
    }
    var changes = encoded.changes
    var stateHash = encoded.hash
    // The whole state tree is built only when needed: redaction, or a keyframe (the trace
    // asks for it through an autoclosure); building it is O(state) for identified arrays.
    var redacted: TraceValue?
    if !stateRedaction.isEmpty {
      var state = encoded.value
      stateRedaction.apply(to: &state)
      changes = stateRedaction.apply(to: changes, newState: state)
      // Redaction replaced subtrees, so the cached hashes are not the recorded state's.
      stateHash = state.stableHash
      redacted = state
    }
    var changedPaths: [String] = []
    changedPaths.reserveCapacity(changes.count)
    for change in changes {
      let text = change.path.description
      if !changedPaths.contains(text) { changedPaths.append(text) }
    }
    let record = StepRecord(
      step: facts.step, monotonicNanos: facts.monotonicNanos,
      wallTime: wallTime(facts.monotonicNanos), origin: facts.origin,
      actionPath: actionPath, action: action, changes: changes, changedPaths: changedPaths,
      stateHash: stateHash, reducerNanos: facts.reducerNanos,
      dependencies: facts.dependencies)
    // Built at most once when both the trace and the live history want it.
    var whole: TraceValue?
    func wholeState() -> TraceValue {
      if let whole { return whole }
      let built = redacted ?? encoded.value
      whole = built
      return built
    }
    try write(step: facts.step) { trace throws(TraceError) in
      try trace.append(record, state: wholeState())
      // The core told which effect sent this step's action: the effect's record lists it.
      if let sender = facts.sender {
        try trace.effectSent(id: sender, step: facts.step)
      }
    }
    if let live {
      live.append(record, state: wholeState)
      if let sender = facts.sender { live.effectSent(id: sender, step: facts.step) }
    }
  }

  private lazy var wallOrigin: Double = Date().timeIntervalSince1970
    - Double(MonotonicClock.nanoseconds() &- session.origin) / 1e9

  private func wallTime(_ monotonicNanos: UInt64) -> Double {
    wallOrigin + Double(monotonicNanos) / 1e9
  }

  private func close(trailingGap: (afterStep: Int, dropped: Int)?) {
    guard !failed else { return }
    do throws(WriteFailure) {
      if let gap = trailingGap {
        try write(step: gap.afterStep) { trace throws(TraceError) in
          try trace.appendGap(afterStep: gap.afterStep, dropped: gap.dropped)
        }
        live?.gap(afterStep: gap.afterStep, dropped: gap.dropped)
      }
      try write(step: nil) { trace throws(TraceError) in try trace.close() }
      trace = nil
    } catch {
      fail(error)
    }
  }
}
