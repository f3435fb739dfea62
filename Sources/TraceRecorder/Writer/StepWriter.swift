import ComposableCore
import Foundation
import TraceKit

/// The background half of a recording: encodes, diffs and hashes what the main actor captured,
/// and has it written and committed at least every flush interval.
///
/// A recording to a file writes in two stages, each on its own thread: this one
/// (`rewind-writer`) encodes, diffs and hashes each step and builds its record and keyframe
/// JSON, and hands them in batches to a `TraceStage` (`rewind-writer-2`), which owns the
/// `TraceWriter` (SQLite, LZ4, commits). What needs none of this stage's caches is left to
/// the trace stage: the texts of the changed paths and the started effects' records (see
/// `TraceOperation`). A recording in memory has this stage only.
///
/// Each batch of events is taken apart by the session's `CaptureKit` (`write`), which is
/// specialized for the feature's types: this class's code is not, and reading a generic event
/// here cost three metadata look-ups and value-witness copies a step.
///
/// ```swift
/// let writer = StepWriter<S, A>(session: session, tree: tree)
/// Thread { writer.run() }.start()
/// ```
@usableFromInline
final class StepWriter<State: Encodable & Sendable, Action: Encodable & Sendable>: @unchecked
  Sendable
{
  private let session: RecordingSession<State, Action>
  private let tree: RecorderTree
  /// The trace stage, once step 0 created the file (nil in memory).
  private var stage: TraceStage?
  /// The operations for the trace stage since the last batch was handed over.
  @exclusivity(unchecked) private var operations: [TraceOperation] = []
  /// The last step handed over: with it, this stage knows which steps are keyframes.
  @exclusivity(unchecked) private var lastStep = 0
  /// The room a keyframe's JSON is written in: the last one's size and an eighth, or the
  /// first one's estimate (see `IncrementalEncoder.Result.json(capacity:)`).
  @exclusivity(unchecked) private var keyframeCapacity = 4096
  private let keyframeInterval: Int
  /// The history live attach keeps in memory: it gets every record the trace gets.
  private let live: LiveHistory?
  // The writer's thread alone uses these, and no call re-enters them: the dynamic exclusivity
  // checks of a class's stored properties cost more than a small step's encoding of them.
  @exclusivity(unchecked) private var encoder = IncrementalEncoder()
  private let stateRedaction: Redaction
  private let actionEncoder = TraceValueEncoder()
  private let actionRedaction: Redaction
  /// The actions met lately and their encodings: repeated actions are encoded once.
  @exclusivity(unchecked) private var actions = EncodedActions(of: Action.self)
  /// The records of the effects started, for live attach's history (the trace stage makes
  /// the trace's).
  @exclusivity(unchecked) private var effectRecords = EffectRecords()
  @exclusivity(unchecked) private var isDirty = false
  @exclusivity(unchecked) private var failed = false
  /// The paths of class instances already reported (each is reported once).
  private var reportedClassInstances = Set<String>()
  /// The positions of the redaction paths that found a value at least once.
  private var stateMatched = Set<Int>()
  private var actionMatched = Set<Int>()
  private var lastFlush: UInt64 = 0
  private let flushNanos: UInt64
  /// The Swift types of the state and actions, for `inspector testgen` (`SwiftTypeTable`).
  @exclusivity(unchecked) private var types = SwiftTypeCollector()

  init(session: RecordingSession<State, Action>, tree: RecorderTree) {
    self.session = session
    self.tree = tree
    live = session.live?.history
    let configuration = session.configuration
    // `Recorder.init` validated both lists.
    stateRedaction = Redaction(validated: configuration.redactedStatePaths)
    actionRedaction = Redaction(validated: configuration.redactedActionPaths)
    let interval = configuration.flushInterval.components
    keyframeInterval = configuration.keyframeInterval
    flushNanos = UInt64(max(0, interval.seconds)) * 1_000_000_000
      + UInt64(max(0, interval.attoseconds / 1_000_000_000))
  }

  /// The writer thread's loop; returns after `.finish`.
  func run() {
    // The session owns the queue and outlives this loop: `finish()` waits for it.
    let queue = session.queue
    let writeBatch = session.kit.write
    let timeout = session.configuration.flushInterval
    let hook = session.configuration.writerWillTake
    while true {
      hook?()
      var events = queue.take(timeout: timeout)
      let wasIdle = events.isEmpty
      // Each event goes to one of the `write…` methods below, moved out of `events`; true once
      // `.finish` was written.
      if writeBatch(self, &events) { return }
      // Consumed, not copied: with `events` still alive, the recycling's `removeAll` found the
      // batch shared and allocated a new one of the same capacity, and freeing the old, a mapped
      // block of up to 612 KB, raised glibc's mapping threshold so that later large blocks came
      // from the heap and kept their pages (memory.record.1m 7.85 MB against 7.09 MB).
      queue.recycle(consume events)
      if !failed, isDirty {
        let now = MonotonicClock.nanoseconds()
        if wasIdle || now &- lastFlush >= flushNanos {
          hand(.flush)
          lastFlush = now
          isDirty = false
        }
      }
      stage?.hand(&operations)
    }
  }

  // MARK: Events (called by `CaptureKit.write`, in the writer's thread)

  /// Step 0.
  @usableFromInline
  func writeStart(state: State, wallTime: Double) {
    record { () throws(WriteFailure) in try start(state: state, wallTime: wallTime) }
  }

  /// A reduced action.
  @usableFromInline
  func writeStep(_ facts: StepFacts, action: Action, state: State) {
    record { () throws(WriteFailure) in try append(facts, action: action, state: state) }
  }

  /// A jump or a continue of an attached inspector: a step with no action.
  @usableFromInline
  func writeInspectorStep(_ facts: StepFacts, state: State) {
    record { () throws(WriteFailure) in
      try append(state, facts: facts, action: .null, actionPath: "")
    }
  }

  /// An effect's start or end, moved into the trace stage's operation (copying a started
  /// effect there, and releasing it after, cost about 200 instructions a step on the composed
  /// app).
  @usableFromInline
  func writeEffect(_ event: consuming EffectEvent) {
    guard takesEvent() else { return }
    effect(event)
  }

  /// The end of the recording: the effect events that never found room, the trailing gap, the
  /// trace closed; then `done` is signalled.
  @usableFromInline
  func writeFinish(
    trailingGap gap: (afterStep: Int, dropped: Int)?, effects: [EffectEvent], done: FinishSignal
  ) {
    for event in effects where !failed { effect(event) }
    close(trailingGap: gap)
    stage?.finish(&operations)
    reportUnmatchedRedactions()
    session.liveEnded("finished")
    done.signal()
  }

  /// Runs one event's work unless a write already failed (which ends the recording).
  private func record(_ body: () throws(WriteFailure) -> Void) {
    guard takesEvent() else { return }
    do {
      try body()
    } catch {
      fail(error)
    }
  }

  /// Whether an event is still written (no write failed); marks the writer dirty if so.
  private func takesEvent() -> Bool {
    // A failure of the trace stage ends the recording as this stage's own would.
    if let stage, stage.hasFailed { failed = true }
    guard !failed else { return false }
    isDirty = true
    return true
  }

  struct WriteFailure: Error {
    var message: String
    /// The last step the file holds, when the failure came before the trace stage had it.
    var lastCommittedStep: Int?
  }

  private func fail(_ failure: WriteFailure) {
    failed = true
    if stage != nil {
      // The trace stage knows the last commit: it reports the failure after the steps handed
      // to it before this one are written.
      hand(.abandon(message: failure.message))
    } else {
      session.fail(
        RecorderError(
          path: session.path ?? "memory", lastCommittedStep: failure.lastCommittedStep,
          message: failure.message))
    }
  }

  /// Queues an operation for the trace stage (none in memory).
  private func hand(_ operation: consuming TraceOperation) {
    guard let stage else { return }
    operations.append(operation)
    // Handed over in parts of a capture batch: three batches are in flight at most (this
    // one, the hand-off's, the trace stage's), and whole capture batches of 4,096 steps
    // doubled the memory a recording holds (memory.record.1m, 7.3 MB to 14.8 MB).
    if operations.count >= Self.handOffBatch { stage.hand(&operations) }
  }

  /// The most operations handed to the trace stage at once.
  static var handOffBatch: Int { 512 }

  private func effect(_ event: consuming EffectEvent) {
    switch consume event {
    case .started(let effect):
      if let live { live.effectStarted(effectRecords.record(of: effect)) }
      hand(.effectStarted(effect))
    case .ended(let id, let nanos, let outcome, let afterStep):
      hand(.effectEnded(id: id, endNanos: nanos, outcome: outcome, afterStep: afterStep))
      live?.effectEnded(id: id, endNanos: nanos, outcome: outcome, afterStep: afterStep)
    }
  }

  private func start(state: State, wallTime: Double) throws(WriteFailure) {
    let encoded: IncrementalEncoder.Result
    do {
      encoded = try encoder.encode(state)
    } catch {
      throw WriteFailure(message: "the initial state could not be encoded: \(error)")
    }
    reportClassInstances(encoded.replaced, in: "state")
    // The whole state tree is built only when needed (redaction, live attach): step 0's
    // keyframe JSON and hash come from the encoder's cached parts, as later keyframes' do.
    var redacted: TraceValue?
    if !stateRedaction.isEmpty {
      var initial = encoded.value
      stateMatched.formUnion(stateRedaction.apply(to: &initial))
      redacted = initial
    }
    let metadata = TraceMetadata(
      rootReducer: tree.rootTypeName, stateType: String(reflecting: State.self),
      actionType: String(reflecting: Action.self),
      keyframeInterval: session.configuration.keyframeInterval,
      extra: session.configuration.extra.merging(
        RecorderMetadata.entries(session.configuration), uniquingKeysWith: { $1 }))
    wallOrigin = wallTime
    if let path = session.path {
      types.noteStart(state, value: encoded.value)
      let typeTable = types.table
      types.isDirty = false
      // The trace stage's thread creates the file and commits step 0 (SQLite, LZ4 of the
      // whole state) while this one goes on with the next steps: at a recording's start this
      // thread has the whole state to encode, and the trace stage nothing yet. A failure
      // there is reported as the trace stage's later ones are (at its last commit).
      let tree = tree.node
      // Moved into the trace writer (`json` has room for the newline it appends): with a copy
      // kept by the closure, appending the newline copied the whole JSON (846k instructions
      // for 10,000 todos).
      var initialStateJSON = redacted == nil ? keyframeJSON(encoded, first: true) : []
      let initialStateHash = encoded.hash
      let redactedState = redacted
      do {
        let session = session
        stage = try TraceStage(
          path: path,
          opening: { () throws(TraceError) -> TraceWriter in
            if let redactedState {
              try TraceWriter(
                path: path, metadata: metadata, initialState: redactedState, wallTime: wallTime)
            } else {
              try TraceWriter(
                path: path, metadata: metadata, initialStateJSON: Self.take(&initialStateJSON),
                initialStateHash: initialStateHash, wallTime: wallTime)
            }
          },
          opened: { (writer) throws(TraceError) in
            try writer.writeTree(tree)
            try writer.setSwiftTypes(typeTable)
          },
          dependencyKeyLog: { session.dependencyKeyLog }, report: { session.fail($0) })
      } catch {
        throw WriteFailure(
          message: "the trace writer thread could not be started (error \(error.code))")
      }
    }
    live?.start(
      metadata: metadata, wallTime: wallTime, initialState: redacted ?? encoded.value,
      tree: tree.node)
    lastFlush = MonotonicClock.nanoseconds()
  }

  /// The state's JSON for a keyframe, written in room for the last one's (the first: for what
  /// the encoding estimates, `jsonSizeHint`).
  private func keyframeJSON(_ encoded: IncrementalEncoder.Result, first: Bool = false) -> [UInt8] {
    if first { keyframeCapacity = Swift.max(keyframeCapacity, encoded.jsonSizeHint) }
    let json = encoded.json(capacity: keyframeCapacity)
    keyframeCapacity = Swift.max(keyframeCapacity, json.count + json.count / 8)
    return json
  }

  /// The bytes, leaving an empty array: the caller's copy is then the only one.
  private static func take(_ bytes: inout [UInt8]) -> [UInt8] {
    var taken: [UInt8] = []
    swap(&taken, &bytes)
    return taken
  }

  private func append(_ facts: StepFacts, action captured: Action, state: State)
    throws(WriteFailure)
  {
    let action: TraceValue
    let actionPath: String
    do {
      if let known = actions.encoding(of: captured) {
        action = known.value
        actionPath = known.path
      } else {
        var (encodedAction, replaced) = try actionEncoder.encodeReplacingClassInstances(
          captured)
        reportClassInstances(replaced, in: "action")
        actionPath = ActionCasePath.path(of: encodedAction)
        actionMatched.formUnion(actionRedaction.apply(to: &encodedAction))
        action = encodedAction
        actions.insert(captured, value: encodedAction, path: actionPath)
        if stage != nil {
          types.noteAction(captured, value: encodedAction, casePath: actionPath)
        }
      }
    } catch {
      throw WriteFailure(message: "step \(facts.step) could not be encoded: \(error)")
    }
    try append(state, facts: facts, action: action, actionPath: actionPath)
  }

  /// Encodes the state after a step and writes the step.
  private func append(
    _ state: State, facts: StepFacts, action: TraceValue, actionPath: String
  ) throws(WriteFailure) {
    let encoded: IncrementalEncoder.Result
    do {
      encoded = try encoder.encode(state)
    } catch {
      throw WriteFailure(message: "step \(facts.step) could not be encoded: \(error)")
    }
    reportClassInstances(encoded.replaced, in: "state")
    var changes = encoded.changes
    var stateHash = encoded.hash
    // The whole state tree is built only when needed: redaction, or the live history's
    // keyframe (it asks through a closure); building it is O(state) for identified arrays.
    var redacted: TraceValue?
    if !stateRedaction.isEmpty {
      var state = encoded.value
      stateMatched.formUnion(stateRedaction.apply(to: &state))
      changes = stateRedaction.apply(to: changes, newState: state)
      // Redaction replaced subtrees, so the cached hashes are not the recorded state's.
      stateHash = state.stableHash
      redacted = state
    }
    // The leaf-most paths the diff found (an inserted element by its id, not the index its
    // insertion needs): what `inspector diff` shows for this step. Their texts are made by
    // whichever stage needs the record first: the trace stage, unless live attach keeps it.
    var paths = encoded.paths
    if redacted != nil {
      for index in paths.indices { paths[index] = stateRedaction.changedPath(paths[index]) }
    }
    var changedPaths: [String] = []
    if live != nil {
      changedPaths = TracePath.changedPathTexts(paths)
      paths = []
    }
    let record = StepRecord(
      step: facts.step, monotonicNanos: facts.monotonicNanos,
      wallTime: wallTime(facts.monotonicNanos), origin: facts.origin,
      actionPath: actionPath, action: action, changes: changes, changedPaths: changedPaths,
      stateHash: stateHash, reducerNanos: facts.reducerNanos,
      dependencies: facts.dependencies.map(\.traceRead))
    if let live {
      live.append(record, state: { redacted ?? encoded.value })
      if let sender = facts.sender { live.effectSent(id: sender, step: facts.step) }
    }
    guard stage != nil else { return }
    types.noteState(state, changes: changes)
    var keyframe: [UInt8]?
    if TraceWriter.isKeyframe(step: facts.step, after: lastStep, interval: keyframeInterval) {
      if let redacted {
        var json: [UInt8] = []
        json.reserveCapacity(1024)
        redacted.writeJSON(into: &json)
        keyframe = json
      } else {
        // The keyframe's JSON from the encoder's cached parts (no tree of the whole state).
        keyframe = keyframeJSON(encoded)
      }
    }
    let typeTable = types.isDirty ? types.table : nil
    types.isDirty = false
    lastStep = facts.step
    // The record is moved, not copied, into the batch (copying it cost a retain and a
    // release of each of its strings and arrays).
    hand(
      .step(
        consume record, changedPaths: paths, keyframe: keyframe, types: typeTable,
        sender: facts.sender))
  }

  /// Reports, once per path, the values recorded as a placeholder because they hold class
  /// instances: the first ones when the recording starts (step 0), any other when it first
  /// appears.
  private func reportClassInstances(_ paths: [TracePath], in part: String) {
    var new: [String] = []
    for path in paths {
      // One report for all the elements of an array: `rows[…]`.
      let general = TracePath(
        path.components.map { if case .index = $0 { .key("[…]") } else { $0 } })
      let text = general.description.replacingOccurrences(of: #"["[…]"]"#, with: "[…]")
      if reportedClassInstances.insert(part + " " + text).inserted { new.append(text) }
    }
    guard !new.isEmpty else { return }
    reportIssue(
      "\(recording): the \(part) at \(new.joined(separator: ", ")) "
        + (new.count == 1 ? "holds" : "hold")
        + " class instances, which change in place where the recorder cannot see them; "
        + (new.count == 1 ? "it is" : "they are")
        + " recorded as \"<not recorded: …>\". Make "
        + (new.count == 1 ? "it a value type" : "them value types") + " to record "
        + (new.count == 1 ? "it." : "them."))
  }

  /// How the issues it reports name the recording.
  private var recording: String {
    session.path.map { "Recording to \($0)" } ?? "Recording in memory"
  }

  /// The wall time of step 0, where the trace's clock reads zero: a step's wall time is this
  /// plus its time on the trace's clock (which may be a virtual one, `Configuration.clock`).
  private var wallOrigin: Double = 0

  private func wallTime(_ monotonicNanos: UInt64) -> Double {
    wallOrigin + Double(monotonicNanos) / 1e9
  }

  /// Hands the end of the trace over: the trailing gap, the redaction paths that matched
  /// nothing, the close.
  private func close(trailingGap gap: (afterStep: Int, dropped: Int)?) {
    guard !failed else { return }
    if let gap { live?.gap(afterStep: gap.afterStep, dropped: gap.dropped) }
    let unmatched = unmatchedRedactions()
    hand(
      .close(
        trailingGap: gap,
        unmatchedRedactions: unmatched.isEmpty
          ? nil : unmatched.map { "\($0.kind) \($0.path)" }.joined(separator: ", ")))
  }

  /// Reports the redaction paths that matched nothing, once the trace stage tried to close
  /// the trace (after a failure before it, the recording reported that instead).
  private func reportUnmatchedRedactions() {
    guard let stage, stage.didAttemptClose else { return }
    let unmatched = unmatchedRedactions()
    guard !unmatched.isEmpty else { return }
    let list = unmatched.map { "\($0.setting) \(TraceValue.string($0.path).jsonString)" }
    reportIssue(
      "\(recording): "
        + (unmatched.count == 1 ? "a redaction path" : "redaction paths")
        + " matched nothing in the whole recording, so nothing was redacted there: "
        + list.joined(separator: ", ") + ".")
  }

  /// The redaction paths that never found a value, in configuration order (only known once a
  /// trace was started; a recording that never began has nothing to tell).
  private func unmatchedRedactions() -> [(setting: String, kind: String, path: String)] {
    guard stage != nil else { return [] }
    var unmatched: [(setting: String, kind: String, path: String)] = []
    for (index, text) in stateRedaction.texts.enumerated() where !stateMatched.contains(index) {
      unmatched.append(("redactedStatePaths[\(index)]", "state", text))
    }
    for (index, text) in actionRedaction.texts.enumerated() where !actionMatched.contains(index)
    {
      unmatched.append(("redactedActionPaths[\(index)]", "action", text))
    }
    return unmatched
  }
}
