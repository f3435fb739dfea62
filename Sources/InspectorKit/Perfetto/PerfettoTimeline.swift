import Foundation
import TraceKit

/// A trace's steps, effects and gaps as Chrome Trace Event Format events in time order, for
/// `inspector export --format perfetto`.
///
/// ```swift
/// var timeline = PerfettoTimeline(gaps: [], effects: stream, file: "t.rewind")
/// try source.forEachStep(from: 0, to: 10) { step throws(InspectorError) in
///   try timeline.add(step)
///   out.write(timeline.take())
///   return true
/// }
/// try timeline.finish()
/// out.write(timeline.take())
/// ```
///
/// Steps are slices on the store's track (their length is the reducer's time), effects are
/// async slices from start to end, and flow arrows run from a step to the effects it started
/// and from an effect to the steps its actions became. Steps arrive one at a time, effects are
/// pulled from a stream in the order they started, and only the effects running at the time
/// being written are held, so memory stays flat however long the trace.
///
/// How the arrows are made: Perfetto binds a version-2 flow (`bind_id`) to the slice of the
/// event that carries it, and an event carries one. When step `n` started effects, its slice
/// begins flow `n + 1` and each of those effects ends it at its own slice. When step `n` was
/// sent by an effect, the effect's track gets an instant one nanosecond before step `n` that
/// begins flow `n + 1`, and the step's slice continues it (in, and out when it started
/// effects): the arrow runs from the effect to the step, then on to the effects the step
/// started. An instant's flow ends strictly later; a step's may end at the same time (a
/// virtual clock's instant) at an effect's slice, which Perfetto reads after complete slices
/// of that time; so no reader's ordering of equal times breaks a flow, and every flow begun is
/// ended. The store starts
/// a step's effects right after its reducer, before the next step begins, so the effects
/// starting before the next step's time are read ahead to know whether a step's slice begins
/// a flow; a part of a concatenation that starts later still ends its step's flow, when that
/// step began one.
struct PerfettoTimeline {
  /// The process of every event, and the threads (tracks) of its slices.
  enum Track {
    static let process = 1
    static let store = 1
    static let recorder = 2
  }

  /// Where an event falls in the document: by time, then effect endings before anything
  /// else at that time, then by step (`order` tells apart an effect's instant, a gap, a step
  /// and the effects the step started).
  struct Key: Comparable {
    var nanos: UInt64
    var rank: Int
    var step: Int
    var order: Int

    static func < (a: Key, b: Key) -> Bool {
      (a.nanos, a.rank, a.step, a.order) < (b.nanos, b.rank, b.step, b.order)
    }
  }

  /// An effect's ending, waiting for its time.
  struct PendingEnd: Comparable {
    var key: Key
    var id: UUID
    var name: String
    /// Still running when the trace (or the exported range) ends: drawn to the last time.
    var isOpenEnded: Bool

    static func < (a: PendingEnd, b: PendingEnd) -> Bool { a.key < b.key }
    static func == (a: PendingEnd, b: PendingEnd) -> Bool { a.key == b.key }
  }

  private let file: String
  /// Dropped steps by the recorded step they follow.
  private let gaps: [Int: Int]
  private let effects: any EffectStream
  /// Effects read from the stream and not written yet, in the order they start.
  private var upcoming: [EffectRecord] = []
  private var upcomingStart = 0
  private var effectsDone = false
  /// The steps whose slices began a flow that the effects they started end: a part of a
  /// concatenation starts when the part before it ends, long after its step. The most recent
  /// `rememberedFlows` only, so memory stays flat; an effect starting later than that after
  /// its step has no arrow.
  private var begunFlows: Set<Int> = []
  private var begunOrder: [Int] = []
  private var begunOldest = 0
  static let rememberedFlows = 65_536
  private var running: Set<UUID> = []
  private var ends = MinHeap<PendingEnd>()
  private var endCount = 0
  /// The step waiting for the next one's time (a slice never reaches past the next step).
  private var waiting: StepRow?
  /// The last step written and where its slice ended.
  private var previous: (step: Int, nanos: UInt64, end: UInt64)?
  private var latestNanos: UInt64 = 0
  private var output = ""
  private var isFirstEvent = true

  init(gaps: [TraceGap], effects: any EffectStream, file: String) {
    self.effects = effects
    self.file = file
    var byStep: [Int: Int] = [:]
    for gap in gaps { byStep[gap.afterStep] = gap.dropped }
    self.gaps = byStep
  }

  /// The events written since the last call, each on its own line after a comma (the first
  /// without one).
  mutating func take() -> String {
    defer { output = "" }
    return output
  }

  /// Writes an event that belongs before every step (process and track names).
  mutating func write(_ event: TraceEventJSON) {
    output += (isFirstEvent ? "\n" : ",\n") + event.text
    isFirstEvent = false
  }

  /// Adds the next step of the range (steps come in order).
  mutating func add(_ step: StepRow) throws(InspectorError) {
    if let waiting {
      guard step.monotonicNanos >= waiting.monotonicNanos else {
        throw .input(
          "index row is damaged: step \(step.step) has time \(step.monotonicNanos) ns, "
            + "before step \(waiting.step)'s \(waiting.monotonicNanos) ns",
          where: "\(file), step \(step.step)")
      }
      try place(waiting, nextNanos: step.monotonicNanos)
    }
    waiting = step
  }

  /// Writes what is left: the last step, the effects still to start and end, and a gap of
  /// steps dropped after the last one.
  mutating func finish() throws(InspectorError) {
    if let waiting { try place(waiting, nextNanos: nil) }
    waiting = nil
    try advance(to: Key(nanos: .max, rank: 0, step: .min, order: .min))
    // What still runs ends where the export ends (every start so far is at or before it).
    let last = latestNanos
    while let end = ends.popMin() { writeEnd(end, at: last) }
    if let previous, let dropped = gaps[previous.step] {
      writeGap(after: previous.step, dropped: dropped, from: previous.end, to: latestNanos)
    }
  }

  // MARK: Steps

  private mutating func place(_ step: StepRow, nextNanos: UInt64?) throws(InspectorError) {
    let nanos = step.monotonicNanos
    var flow = TraceEventJSON.Flow(id: step.step + 1, isIn: false, isOut: false)
    if case .effect(let id) = step.origin, nanos > 0 {
      // The effect's instant sits just before the step, where the send happened.
      try advance(to: Key(nanos: nanos - 1, rank: 1, step: step.step, order: 0))
      if running.contains(id) {
        var send = TraceEventJSON(
          phase: "n", name: "sends step \(step.step)", category: "effect", nanos: nanos - 1)
        send.asyncID = id.uuidString
        send.flow = .init(id: step.step + 1, isIn: false, isOut: true)
        emit(send)
        flow.isIn = true
      }
    }
    if let previous, let dropped = gaps[previous.step] {
      writeGap(after: previous.step, dropped: dropped, from: previous.end, to: nanos)
    }
    try advance(to: Key(nanos: nanos, rank: 1, step: step.step, order: 2))
    var duration = step.reducerNanos
    if let nextNanos {
      // Steps at one instant of a virtual clock share a time: a slice stops where the next
      // step begins, and keeps the reducer's time in its args.
      duration = min(duration, nextNanos - nanos)
    }
    var event = TraceEventJSON(
      phase: "X", name: step.step == 0 ? "initial state" : Self.shortName(step.actionPath),
      category: "step", nanos: nanos)
    event.durationNanos = duration
    try readEffects(startingBy: nextNanos ?? .max)
    flow.isOut = upcoming[upcomingStart...].contains {
      $0.startedByStep == step.step && $0.startNanos! <= nextNanos ?? .max
    }
    if flow.isOut { remember(step.step) }
    if flow.isIn || flow.isOut { event.flow = flow }
    var args = JSONOutput()
    args.object { j in
      j.field("step") { $0.int(step.step) }
      j.field("action") { $0.string(step.actionPath) }
      j.field("origin") { $0.string(step.origin.storageText) }
      j.field("changed") { j in j.array { j in for path in step.changedPaths { j.string(path) } } }
      j.field("reducerNanos") { $0.uint(step.reducerNanos) }
    }
    event.args = args
    emit(event)
    previous = (step.step, nanos, nanos + duration)
  }

  private mutating func writeGap(after step: Int, dropped: Int, from: UInt64, to: UInt64) {
    var event = TraceEventJSON(
      phase: "X", name: NumberText.counted(dropped, "step") + " dropped", category: "gap",
      nanos: from)
    event.durationNanos = to >= from ? to - from : 0
    event.threadID = Track.recorder
    var args = JSONOutput()
    args.object { j in
      j.field("afterStep") { $0.int(step) }
      j.field("dropped") { $0.int(dropped) }
    }
    event.args = args
    emit(event)
  }

  // MARK: Effects

  /// Writes every effect start and end that comes before `key`.
  private mutating func advance(to key: Key) throws(InspectorError) {
    while true {
      let start = try peekEffect()
      let startKey = start.map(Self.startKey)
      let end = ends.min
      if let start, let startKey, startKey < key, end.map({ startKey < $0.key }) ?? true {
        upcomingStart += 1
        if upcomingStart >= 64, upcomingStart * 2 >= upcoming.count {
          // Reading ahead keeps one effect unwritten: drop the written ones now and then.
          upcoming.removeFirst(upcomingStart)
          upcomingStart = 0
        }
        writeStart(start, key: startKey)
      } else if let end, end.key < key, !end.isOpenEnded {
        _ = ends.popMin()
        writeEnd(end, at: end.key.nanos)
      } else {
        return
      }
    }
  }

  /// The next effect to start (an effect without a start time cannot be placed: skipped).
  private mutating func peekEffect() throws(InspectorError) -> EffectRecord? {
    if upcomingStart == upcoming.count {
      upcoming.removeAll(keepingCapacity: true)
      upcomingStart = 0
      try readEffect()
    }
    return upcomingStart < upcoming.count ? upcoming[upcomingStart] : nil
  }

  /// Reads ahead every effect that starts by `nanos`, and one more.
  private mutating func readEffects(startingBy nanos: UInt64) throws(InspectorError) {
    while !effectsDone, upcoming.last.map({ $0.startNanos! <= nanos }) ?? true {
      try readEffect()
    }
  }

  private mutating func readEffect() throws(InspectorError) {
    while !effectsDone {
      guard let effect = try effects.next() else {
        effectsDone = true
        return
      }
      if effect.startNanos != nil {
        upcoming.append(effect)
        return
      }
    }
  }

  private static func startKey(_ effect: EffectRecord) -> Key {
    Key(nanos: effect.startNanos ?? 0, rank: 1, step: effect.startedByStep, order: 3)
  }

  private mutating func writeStart(_ effect: EffectRecord, key: Key) {
    let name = Self.label(effect)
    var event = TraceEventJSON(phase: "b", name: name, category: "effect", nanos: key.nanos)
    event.asyncID = effect.id.uuidString
    if begunFlows.contains(effect.startedByStep) {
      event.flow = .init(id: effect.startedByStep + 1, isIn: true, isOut: false)
    }
    event.args = Self.args(effect)
    emit(event)
    running.insert(effect.id)
    endCount += 1
    let endNanos = effect.endNanos.map { max($0, key.nanos) }
    ends.insert(
      PendingEnd(
        key: Key(nanos: endNanos ?? .max, rank: 0, step: endCount, order: 0), id: effect.id,
        name: name, isOpenEnded: endNanos == nil))
  }

  private mutating func writeEnd(_ end: PendingEnd, at nanos: UInt64) {
    var event = TraceEventJSON(phase: "e", name: end.name, category: "effect", nanos: nanos)
    event.asyncID = end.id.uuidString
    emit(event)
    running.remove(end.id)
  }

  private mutating func remember(_ step: Int) {
    begunFlows.insert(step)
    begunOrder.append(step)
    if begunOrder.count - begunOldest > Self.rememberedFlows {
      begunFlows.remove(begunOrder[begunOldest])
      begunOldest += 1
      if begunOldest >= Self.rememberedFlows {
        begunOrder.removeFirst(begunOldest)
        begunOldest = 0
      }
    }
  }

  /// An effect's name on the timeline: its cancellation id, else where it was created.
  static func label(_ effect: EffectRecord) -> String {
    if let cancelID = effect.cancelID { return shortName(cancelID) }
    if let file = effect.file {
      let name = file.split(separator: "/").last.map(String.init) ?? file
      return shortName(effect.line.map { "\(name):\($0)" } ?? name)
    }
    return "effect"
  }

  /// A name as a timeline shows it: at most `nameLength` characters (the args keep it whole),
  /// so a damaged or odd trace's megabyte name is not repeated in every event.
  static func shortName(_ name: String) -> String {
    guard name.utf8.count > nameLength else { return name }
    return String(name.prefix(nameLength)) + "…"
  }

  static let nameLength = 200

  static func args(_ effect: EffectRecord) -> JSONOutput {
    var args = JSONOutput()
    args.object { j in
      j.field("id") { $0.string(effect.id.uuidString) }
      j.field("startedByStep") { $0.int(effect.startedByStep) }
      j.field("cancelID") { j in j.optional(effect.cancelID) { $0.string($1) } }
      if let file = effect.file {
        j.field("source") { $0.string(effect.line.map { "\(file):\($0)" } ?? file) }
      }
      switch effect.outcome {
      case .running: j.field("outcome") { $0.string("running") }
      case .finished: j.field("outcome") { $0.string("finished") }
      case .unfinished: j.field("outcome") { $0.string("unfinished") }
      case .cancelled(let reason, let step):
        j.field("outcome") { $0.string("cancelled") }
        j.field("cause") { $0.string(reason) }
        if let step { j.field("cancelledByStep") { $0.int(step) } }
      }
      j.field("sentSteps") { j in j.array { j in for step in effect.sentSteps { j.int(step) } } }
    }
    return args
  }

  private mutating func emit(_ event: TraceEventJSON) {
    latestNanos = max(latestNanos, (event.nanos ?? 0) + (event.durationNanos ?? 0))
    write(event)
  }
}
