import Foundation
import LiveAttach
import Locking
import Synchronization
import TraceKit

/// The recording held in memory for live attach: the last steps (at least `steps` of them, or
/// fewer when they would take more than `bytes`), their effects, and the recording's start.
///
/// The writer thread appends what it encoded for the trace (the same records, not a second
/// encoding), so the main actor pays nothing for it. The history is a list of segments: each
/// holds the whole state after its first step (its base, built by the writer as it builds a
/// keyframe) and the records after it, so any state in the history is one base plus at most a
/// segment of patches, and the oldest segment is dropped whole.
///
/// ```swift
/// let history = LiveHistory(steps: 10_000, bytes: 64 << 20)
/// history.start(metadata: m, wallTime: t, initialState: s, tree: tree)  // the writer: step 0
/// history.append(record, state: encoded.value)   // the writer: each step
/// try history.state(at: 12)                      // the server: for a jump
/// ```
final class LiveHistory: Sendable {
  /// A step and the state after it, where a segment begins (nil record: step 0).
  struct Base: Sendable {
    var record: StepRecord?
    var state: TraceValue
    var step: Int { record?.step ?? 0 }
  }

  /// A base and what followed it. The base has sequence number `firstSequence`, the events
  /// the numbers after it.
  struct Segment: Sendable {
    var base: Base
    var events: [LiveEvent] = []
    var firstSequence: Int
    var steps = 0
    var bytes: Int

    var endSequence: Int { firstSequence + 1 + events.count }
  }

  struct Storage: ~Copyable {
    var start: LiveStart?
    var segments: [Segment] = []
    var nextSequence = 0
    var lastStep = 0
    var steps = 0
    var bytes = 0
    /// Effects started and not ended, by id: a watcher whose history begins after an
    /// effect's start still learns of it before its end.
    var running: [UUID: EffectRecord] = [:]
    /// How the recording ended, once it has.
    var ending: String?
    /// Whether the server wants to hear of new events (someone watches).
    var isWatched = false
    /// Whether the server was told of events it has not looked at yet.
    var wakePending = false
  }

  /// The most steps worth keeping (the history keeps at least these, and up to one segment
  /// more).
  let stepLimit: Int
  /// The most bytes (estimated) worth keeping: over it, the oldest segments go.
  let byteLimit: Int
  /// Steps per segment: the history moves on by this many at a time.
  let segmentSteps: Int
  private let storage = Lock(Storage())
  /// The steps of the newest segment, as the writer last left them (only it appends).
  private let newestSteps = Atomic<Int>(0)
  /// Tells the server that there is something new (set once the server exists).
  private let wake = Lock<(@Sendable () -> Void)?>(nil)

  init(steps: Int, bytes: Int) {
    stepLimit = max(1, steps)
    byteLimit = max(1, bytes)
    segmentSteps = max(1, min(256, stepLimit / 8))
  }

  func onChange(_ body: @escaping @Sendable () -> Void) {
    wake.withLock { $0 = body }
  }

  // MARK: The writer's side

  /// The recording began: its header and step 0.
  func start(
    metadata: TraceMetadata, wallTime: Double, initialState: TraceValue, tree: ReducerTreeNode
  ) {
    let start = LiveStart(
      metadata: metadata, wallTime: wallTime, initialState: initialState, tree: tree)
    mutate { storage in
      storage.start = start
      let base = Base(record: nil, state: start.initialState)
      storage.segments = [
        Segment(base: base, firstSequence: 0, bytes: start.initialState.estimatedBytes)
      ]
      storage.nextSequence = 1
      storage.bytes = storage.segments[0].bytes
      newestSteps.store(0, ordering: .relaxed)
    }
  }

  /// A step was recorded; `state` (the whole state after it) is built only when the step
  /// begins a segment.
  func append(_ record: StepRecord, state: () -> TraceValue) {
    // Only the writer appends: whether this step begins a segment cannot change before the
    // `mutate` below, so its state is built outside the lock the server reads under.
    let beginsSegment = newestSteps.load(ordering: .relaxed) >= segmentSteps
    let base = beginsSegment ? Base(record: record, state: state()) : nil
    let baseBytes = base.map { $0.state.estimatedBytes + LiveEvent.step(record).estimatedBytes }
    mutate { storage in
      guard !storage.segments.isEmpty, storage.ending == nil else { return }
      noteDropped(before: record, in: &storage)
      if let base, let baseBytes {
        storage.segments.append(
          Segment(base: base, firstSequence: storage.nextSequence, bytes: baseBytes))
        storage.bytes += storage.segments[storage.segments.count - 1].bytes
        storage.nextSequence += 1
        storage.steps += 1
        storage.segments[storage.segments.count - 1].steps = 1
      } else {
        add(.step(record), to: &storage)
        storage.steps += 1
        storage.segments[storage.segments.count - 1].steps += 1
      }
      storage.lastStep = record.step
      newestSteps.store(storage.segments[storage.segments.count - 1].steps, ordering: .relaxed)
      evict(&storage)
    }
  }

  /// Records the steps the recorder dropped before `record` (its numbers jump), as the trace
  /// does.
  private func noteDropped(before record: StepRecord, in storage: inout Storage) {
    if record.step > storage.lastStep + 1 {
      add(
        .gap(afterStep: storage.lastStep, dropped: record.step - storage.lastStep - 1),
        to: &storage)
    }
  }

  func effectStarted(_ effect: EffectRecord) {
    mutate { storage in
      storage.running[effect.id] = effect
      add(.effectStarted(effect), to: &storage)
    }
  }

  func effectSent(id: UUID, step: Int) {
    mutate { add(.effectSent(id: id, step: step), to: &$0) }
  }

  func effectEnded(id: UUID, endNanos: UInt64, outcome: EffectOutcome, afterStep: Int?) {
    mutate { storage in
      storage.running[id] = nil
      add(
        .effectEnded(id: id, endNanos: endNanos, outcome: outcome, afterStep: afterStep),
        to: &storage)
    }
  }

  /// The recorder dropped `dropped` steps after `afterStep`.
  func gap(afterStep: Int, dropped: Int) {
    mutate { add(.gap(afterStep: afterStep, dropped: dropped), to: &$0) }
  }

  /// The recording ended: `finished`, or why it stopped.
  func finish(_ reason: String) {
    storage.withLock { storage in
      if storage.ending == nil { storage.ending = reason }
    }
    // Watched or not, the server must hear of the end at once.
    wake.withLock { $0 }?()
  }

  private func add(_ event: LiveEvent, to storage: inout Storage) {
    guard !storage.segments.isEmpty, storage.ending == nil else { return }
    let last = storage.segments.count - 1
    storage.segments[last].events.append(event)
    let bytes = event.estimatedBytes
    storage.segments[last].bytes += bytes
    storage.bytes += bytes
    storage.nextSequence += 1
  }

  /// Drops the oldest segments while the others hold enough steps, or while all of them take
  /// too many bytes (the newest is always kept).
  private func evict(_ storage: inout Storage) {
    while storage.segments.count > 1 {
      let oldest = storage.segments[0]
      let enoughWithout = storage.steps - oldest.steps >= stepLimit
      guard enoughWithout || storage.bytes > byteLimit else { return }
      storage.segments.removeFirst()
      storage.steps -= oldest.steps
      storage.bytes -= oldest.bytes
    }
  }

  /// Changes the storage and, in the same critical section, decides whether the server must
  /// be woken (someone watches and the server has not been told yet).
  private func mutate(_ body: (inout Storage) -> Void) {
    let mustWake = storage.withLock { storage -> Bool in
      body(&storage)
      guard storage.isWatched, !storage.wakePending else { return false }
      storage.wakePending = true
      return true
    }
    if mustWake { wake.withLock { $0 }?() }
  }

  // MARK: The server's side

  /// What the welcome message tells about the history.
  struct Summary: Sendable {
    var start: LiveStart?
    var firstStep: Int
    var lastStep: Int
    var ending: String?
  }

  var summary: Summary {
    storage.withLock { storage in
      Summary(
        start: storage.start, firstStep: storage.segments.first?.base.step ?? 0,
        lastStep: storage.lastStep, ending: storage.ending)
    }
  }

  /// Whether the server wants wake-ups for new events.
  func setWatched(_ watched: Bool) {
    storage.withLock { $0.isWatched = watched }
  }

  /// The server has read everything a watcher can take: the next change wakes it again.
  /// Returns the sequence number after the last event, so the server can see whether
  /// something came in before it was re-armed.
  func clearWake() -> Int {
    storage.withLock { storage in
      storage.wakePending = false
      return storage.nextSequence
    }
  }

  /// Where a new watcher begins: the start, the oldest base, the effects still running that
  /// began before it, and the sequence numbers of its first event and of the end of what is
  /// held now. Nil before the recording started.
  struct Opening: Sendable {
    var start: LiveStart
    var base: Base
    var runningBefore: [EffectRecord]
    var firstSequence: Int
    var endSequence: Int
    var lastStep: Int
  }

  var opening: Opening? {
    storage.withLock { storage in
      guard let start = storage.start, let oldest = storage.segments.first else { return nil }
      let before = storage.running.values.filter { $0.startedByStep <= oldest.base.step }
        .sorted { ($0.startNanos ?? 0, $0.id.uuidString) < ($1.startNanos ?? 0, $1.id.uuidString) }
      return Opening(
        start: start, base: oldest.base, runningBefore: before,
        firstSequence: oldest.firstSequence + 1, endSequence: storage.nextSequence,
        lastStep: storage.lastStep)
    }
  }

  /// What a watcher at `sequence` reads next.
  enum Read: Sendable {
    /// Events from `sequence` on (empty: nothing new), and the sequence after them.
    case events([LiveEvent], next: Int)
    /// The watcher's events were dropped: it goes on from this base.
    case movedOn(Base, next: Int)
    /// Nothing more will come: the recording ended this way.
    case ended(String)
  }

  /// Up to `limit` events from `sequence` on.
  func read(from sequence: Int, limit: Int) -> Read {
    storage.withLock { storage in
      guard let oldest = storage.segments.first else { return .events([], next: sequence) }
      if sequence < oldest.firstSequence {
        return .movedOn(oldest.base, next: oldest.firstSequence + 1)
      }
      if sequence >= storage.nextSequence {
        if let ending = storage.ending { return .ended(ending) }
        return .events([], next: sequence)
      }
      var events: [LiveEvent] = []
      var next = sequence
      for segment in storage.segments where segment.endSequence > next {
        if segment.firstSequence == next {
          // A segment's base: the watcher reads it as a step like any other.
          if let record = segment.base.record { events.append(.step(record)) }
          next += 1
        }
        let from = next - segment.firstSequence - 1
        let take = min(limit - events.count, segment.events.count - from)
        guard take > 0 else { break }
        events.append(contentsOf: segment.events[from..<(from + take)])
        next += take
        if events.count >= limit { break }
      }
      return .events(events, next: next)
    }
  }

  /// Why a state cannot be rebuilt from the history.
  enum StateError: Error, Sendable {
    case notHeld(first: Int, last: Int)
    case patch(String)
    case hashMismatch(recorded: UInt64, rebuilt: UInt64)
  }

  /// The state after `step` and its recorded hash, rebuilt from the base of its segment.
  func state(at step: Int) throws(StateError) -> (state: TraceValue, hash: UInt64) {
    let found = storage.withLock { storage -> (Base, [StepRecord])? in
      guard let index = storage.segments.lastIndex(where: { $0.base.step <= step }),
        step <= storage.lastStep
      else { return nil }
      let segment = storage.segments[index]
      var records: [StepRecord] = []
      for event in segment.events {
        guard case .step(let record) = event else { continue }
        if record.step > step { break }
        records.append(record)
      }
      return (segment.base, records)
    }
    guard let (base, records) = found else {
      let summary = self.summary
      throw .notHeld(first: summary.firstStep, last: summary.lastStep)
    }
    var state = base.state
    var hash = base.record?.stateHash ?? state.stableHash
    for record in records {
      do {
        try TraceDiff.apply(record.changes, to: &state)
      } catch {
        throw .patch("step \(record.step): \(error)")
      }
      hash = record.stateHash
    }
    if (records.last?.step ?? base.step) != step {
      let summary = self.summary
      throw .notHeld(first: summary.firstStep, last: summary.lastStep)
    }
    let rebuilt = state.stableHash
    guard rebuilt == hash else { throw .hashMismatch(recorded: hash, rebuilt: rebuilt) }
    return (state, hash)
  }
}
