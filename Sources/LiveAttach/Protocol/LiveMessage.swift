import Foundation
import TraceKit

/// One message of the live-attach protocol, either way (docs/live-protocol.md). Each travels
/// in a frame as one JSON object whose `type` names it.
///
/// ```swift
/// let bytes = LiveMessage.hello(version: 1).frame()
/// // 00 00 00 1a {"type":"hello","version":1}
/// let message = try LiveMessage(json: payload)   // reads any message back
/// ```
package enum LiveMessage: Sendable {
  // From an inspector.
  /// The first message of a connection: the protocol version the client speaks.
  case hello(version: Int)
  /// Send the history held in memory, then (when `live`) the steps as they happen.
  case watch(id: Int, live: Bool)
  case command(id: Int, LiveCommand)

  // From the app.
  case welcome(LiveWelcome)
  /// The command `id` was done; `step` is the step it made, if it made one.
  case ok(id: Int, status: LiveStatus, step: Int?)
  /// A request was refused, or a frame broke the protocol (`id` nil when it had none).
  case error(id: Int?, code: String, message: String)
  case start(LiveStart)
  /// A step and the whole state after it: where the history (or a client that fell behind)
  /// starts.
  case keyframe(StepRecord, state: TraceValue)
  case step(StepRecord)
  case effectStarted(EffectRecord)
  case effectSent(id: UUID, step: Int)
  case effectEnded(id: UUID, endNanos: UInt64, outcome: EffectOutcome, afterStep: Int?)
  /// Steps after `afterStep` that the client will not receive: the recorder dropped them, or
  /// the client read too slowly and the history moved past them (a keyframe follows).
  case gap(afterStep: Int, dropped: Int, reason: GapReason)
  /// Everything the app held when the watch began has been sent.
  case historyEnd(lastStep: Int)
  case status(LiveStatus)
  /// The recording ended (`finished`) or stopped (`failed: …`); the app closes the connection.
  case end(reason: String)

  /// Why steps are missing.
  package enum GapReason: String, Sendable {
    /// The recorder dropped them (its overflow policy).
    case recorder
    /// They are older than the history the app holds in memory.
    case history
    /// This client did not read them in time: the history moved past them.
    case client
  }

  /// The message's `type` on the wire.
  package var type: String {
    switch self {
    case .hello: "hello"
    case .watch: "watch"
    case .command(_, let command): command.type
    case .welcome: "welcome"
    case .ok: "ok"
    case .error: "error"
    case .start: "start"
    case .keyframe: "keyframe"
    case .step: "step"
    case .effectStarted: "effectStarted"
    case .effectSent: "effectSent"
    case .effectEnded: "effectEnded"
    case .gap: "gap"
    case .historyEnd: "historyEnd"
    case .status: "status"
    case .end: "end"
    }
  }

  /// The message's JSON text.
  package func json() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(128)
    object.value.writeJSON(into: &bytes)
    return bytes
  }

  /// The message as a frame: length, then JSON.
  package func frame() -> [UInt8] {
    var bytes: [UInt8] = []
    appendFrame(to: &bytes)
    return bytes
  }

  /// Appends the message's frame to `output`: the JSON is written in place after room for
  /// the length, which is filled in once known (no copy of the payload). `steps` writes step
  /// messages, the ones a watcher gets most, directly (a server keeps one per connection: it
  /// remembers the text of the paths it wrote).
  package func appendFrame(to output: inout [UInt8], steps: inout StepFrameWriter) {
    let start = output.count
    output.append(contentsOf: [0, 0, 0, 0])
    if case .step(let record) = self {
      steps.write(record, into: &output)
    } else {
      object.value.writeJSON(into: &output)
    }
    let length = UInt32(truncatingIfNeeded: output.count - start - LiveProtocol.headerBytes)
    output[start] = UInt8(truncatingIfNeeded: length >> 24)
    output[start + 1] = UInt8(truncatingIfNeeded: length >> 16)
    output[start + 2] = UInt8(truncatingIfNeeded: length >> 8)
    output[start + 3] = UInt8(truncatingIfNeeded: length)
  }

  /// Appends the message's frame to `output`.
  package func appendFrame(to output: inout [UInt8]) {
    var steps = StepFrameWriter()
    appendFrame(to: &output, steps: &steps)
  }

  static func dependencies(_ record: StepRecord) -> TraceValue {
    .array(
      record.dependencies.map {
        .object([TraceField("key", .string($0.key)), TraceField("value", $0.value)])
      })
  }

  private var object: LiveObject {
    switch self {
    case .hello(let version):
      var object = LiveObject(type: "hello")
      object.set("version", version)
      return object
    case .watch(let id, let live):
      var object = LiveObject(type: "watch")
      object.set("id", id)
      object.set("live", live)
      return object
    case .command(let id, let command):
      var object = LiveObject(type: command.type)
      object.set("id", id)
      switch command {
      case .jump(let step): object.set("step", step)
      case .send(let action): object.set("action", action)
      case .pause, .resume, .continueFromHere, .status: break
      }
      return object
    case .welcome(let welcome):
      return welcome.object
    case .ok(let id, let status, let step):
      var object = LiveObject(type: "ok")
      object.set("id", id)
      object.set("status", status.object.value)
      object.set("step", step)
      return object
    case .error(let id, let code, let message):
      var object = LiveObject(type: "error")
      object.set("id", id)
      object.set("code", code)
      object.set("message", message)
      return object
    case .start(let start):
      return start.object
    case .keyframe(let record, let state):
      var object = Self.stepObject(record, type: "keyframe")
      object.set("state", state)
      return object
    case .step(let record):
      return Self.stepObject(record, type: "step")
    case .effectStarted(let effect):
      var object = LiveObject(type: "effectStarted")
      object.set("id", effect.id.uuidString)
      object.set("step", effect.startedByStep)
      object.set("cancelID", effect.cancelID)
      object.set("file", effect.file)
      object.set("line", effect.line)
      object.set("startNs", effect.startNanos.map { .int(Int64(clamping: $0)) } ?? .null)
      object.set("kind", effect.kind)
      object.set("parent", effect.parentID?.uuidString)
      object.set("afterStep", effect.startedAfterStep)
      return object
    case .effectSent(let id, let step):
      var object = LiveObject(type: "effectSent")
      object.set("id", id.uuidString)
      object.set("step", step)
      return object
    case .effectEnded(let id, let endNanos, let outcome, let afterStep):
      var object = LiveObject(type: "effectEnded")
      object.set("id", id.uuidString)
      object.set("endNs", endNanos)
      object.set("outcome", outcome.storageText)
      if case .cancelled(let reason, let byStep) = outcome {
        object.set("reason", reason)
        object.set("byStep", byStep)
      }
      object.set("afterStep", afterStep)
      return object
    case .gap(let afterStep, let dropped, let reason):
      var object = LiveObject(type: "gap")
      object.set("afterStep", afterStep)
      object.set("dropped", dropped)
      object.set("reason", reason.rawValue)
      return object
    case .historyEnd(let lastStep):
      var object = LiveObject(type: "historyEnd")
      object.set("lastStep", lastStep)
      return object
    case .status(let status):
      return status.object
    case .end(let reason):
      var object = LiveObject(type: "end")
      object.set("reason", reason)
      return object
    }
  }

  private static func stepObject(_ record: StepRecord, type: String) -> LiveObject {
    var object = LiveObject(type: type)
    object.set("step", record.step)
    object.set("mono", record.monotonicNanos)
    object.set("wall", .double(record.wallTime))
    object.set("origin", record.origin.storageText)
    object.set("actionPath", record.actionPath)
    object.set("action", record.action)
    object.set("changes", .array(record.changes.map(\.jsonValue)))
    object.set("changedPaths", .array(record.changedPaths.map { .string($0) }))
    object.set("hash", hash: record.stateHash)
    object.set("reducerNs", record.reducerNanos)
    if !record.dependencies.isEmpty {
      object.set("deps", dependencies(record))
    }
    return object
  }

  /// Reads a message from its JSON text.
  ///
  /// - Throws: `LiveProtocolError` for text that is not a message this version knows.
  package init(json: [UInt8]) throws(LiveProtocolError) {
    let value: TraceValue
    do {
      value = try TraceValue(json: json)
    } catch {
      throw .malformed("not JSON: \(error)")
    }
    let fields = try LiveFields(value)
    let type = try fields.string("type")
    switch type {
    case "hello":
      self = .hello(version: try fields.int("version"))
    case "watch":
      self = .watch(id: try fields.int("id"), live: try fields.bool("live"))
    case "pause": self = .command(id: try fields.int("id"), .pause)
    case "resume": self = .command(id: try fields.int("id"), .resume)
    case "continue": self = .command(id: try fields.int("id"), .continueFromHere)
    case "status" where fields.has("id"): self = .command(id: try fields.int("id"), .status)
    case "jump":
      self = .command(id: try fields.int("id"), .jump(step: try fields.int("step")))
    case "send":
      self = .command(id: try fields.int("id"), .send(action: try fields.required("action")))
    case "welcome":
      self = .welcome(try LiveWelcome(fields: fields))
    case "ok":
      self = .ok(
        id: try fields.int("id"),
        status: try LiveStatus(fields: try LiveFields(try fields.required("status"))),
        step: try fields.optionalInt("step"))
    case "error":
      self = .error(
        id: try fields.optionalInt("id"), code: try fields.string("code"),
        message: try fields.string("message"))
    case "start":
      self = .start(try LiveStart(fields: fields))
    case "keyframe":
      self = .keyframe(try Self.stepRecord(fields), state: try fields.required("state"))
    case "step":
      self = .step(try Self.stepRecord(fields))
    case "effectStarted":
      let start = try fields.has("startNs") ? fields.uint64("startNs") : nil
      self = .effectStarted(
        EffectRecord(
          id: try fields.uuid("id"), startedByStep: try fields.int("step"),
          cancelID: try fields.optionalString("cancelID"), file: try fields.optionalString("file"),
          line: try fields.optionalInt("line"), startNanos: start,
          kind: try fields.optionalString("kind"), parentID: try fields.optionalUUID("parent"),
          startedAfterStep: try fields.optionalInt("afterStep")))
    case "effectSent":
      self = .effectSent(id: try fields.uuid("id"), step: try fields.int("step"))
    case "effectEnded":
      self = .effectEnded(
        id: try fields.uuid("id"), endNanos: try fields.uint64("endNs"),
        outcome: try Self.outcome(fields), afterStep: try fields.optionalInt("afterStep"))
    case "gap":
      guard let reason = GapReason(rawValue: try fields.string("reason")) else {
        throw .malformed("'reason' is not recorder, history or client")
      }
      self = .gap(
        afterStep: try fields.int("afterStep"),
        dropped: try fields.int("dropped", in: 1...Int.max),
        reason: reason)
    case "historyEnd":
      self = .historyEnd(lastStep: try fields.int("lastStep"))
    case "status":
      self = .status(try LiveStatus(fields: fields))
    case "end":
      self = .end(reason: try fields.string("reason"))
    default:
      throw .unknownType(type)
    }
  }

  private static func stepRecord(_ fields: LiveFields) throws(LiveProtocolError) -> StepRecord {
    let originText = try fields.string("origin")
    guard let origin = StepOrigin(storageText: originText) else {
      throw .malformed("'origin' is not an origin: \(originText)")
    }
    var changes: [TraceChange] = []
    for element in try fields.array("changes") {
      do {
        changes.append(try TraceChange(jsonValue: element))
      } catch {
        throw .malformed("a change: \(error)")
      }
    }
    var dependencies: [DependencyRead] = []
    if fields.has("deps") {
      for element in try fields.array("deps") {
        let read = try LiveFields(element)
        dependencies.append(
          DependencyRead(key: try read.string("key"), value: try read.required("value")))
      }
    }
    return StepRecord(
      step: try fields.int("step"), monotonicNanos: try fields.uint64("mono"),
      wallTime: try fields.double("wall"), origin: origin,
      actionPath: try fields.string("actionPath"), action: try fields.required("action"),
      changes: changes, changedPaths: try fields.strings("changedPaths"),
      stateHash: try fields.hash("hash"), reducerNanos: try fields.uint64("reducerNs"),
      dependencies: dependencies)
  }

  private static func outcome(_ fields: LiveFields) throws(LiveProtocolError) -> EffectOutcome {
    switch try fields.string("outcome") {
    case "running": return .running
    case "finished": return .finished
    case "unfinished": return .unfinished
    case "cancelled":
      return .cancelled(
        reason: try fields.string("reason"), byStep: try fields.optionalInt("byStep"))
    case let other: throw .malformed("'outcome' is not an outcome: \(other)")
    }
  }
}
