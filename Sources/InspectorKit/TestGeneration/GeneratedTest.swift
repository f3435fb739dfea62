import Foundation
import TraceKit

/// The Swift test `inspector testgen` prints: a `TestStore` of the trace's root feature driven
/// through steps `from…to` as they were recorded.
///
/// ```swift
/// var test = GeneratedTest(options: options, summary: summary, initialState: state)
/// test.add(step, action: action, changes: changes, reads: reads)
/// print(test.source)
/// // … await store.send(.addTodoTapped(title: .recorded("Milk"))) { … } …
/// ```
///
/// - A step the user (or an observer, or an attached inspector) sent is a `send`; a step an
///   effect sent, or a `.send` a step returned, is a `receive` when that effect's step is in
///   the test, else a `send` (its effect started before the test does).
/// - Each `send` and `receive` asserts the state exhaustively with the changes the trace
///   recorded: `$0.filter = …` for a top-level property, `$0.recorded(set: "<path>", …)` below
///   it (the trace cannot tell optional chaining or which collection from the state's shape).
/// - The `TestClock` advances by the recorded time between steps; the `uuid`, `date` and
///   random values the reducer read are served back in order; every other dependency (the
///   clients the trace did not record) runs with its test value unless `--dependency` names
///   one.
struct GeneratedTest {
  struct Options {
    var traceName: String
    var from: Int
    var to: Int
    var swiftTesting: Bool
    var reducer: String?
    var imports: [String]
    var dependencies: [(key: String, value: String)]
    var name: String?
    var commandLine: String
  }

  /// An effect of the trace, as the test needs to know it.
  struct EffectFacts {
    var startedByStep: Int
    var endNanos: UInt64?
  }

  let options: Options
  let summary: TraceSummary
  var body: [String] = []
  var uuids: [TraceValue] = []
  var dates: [TraceValue] = []
  var randoms: [TraceValue] = []
  private var previousNanos: UInt64
  let initialState: TraceValue
  private let effects: [UUID: EffectFacts]
  /// What ends the test: effects still running, actions received after the last step.
  var ending: [String] = []
  /// Values and changes as plain Swift, from the trace's type table (nil: a trace recorded
  /// before traces had one, whose values are all decoded from recorded JSON).
  var typed: TypedSwiftText?
  /// The dependency keys the recorded feature read, but the architecture's own (nil: a trace
  /// recorded before traces listed them).
  let clients: [DependencyKeyRecord]?

  static let width = 96

  init(
    options: Options, summary: TraceSummary, initialState: TraceValue, initialNanos: UInt64,
    effects: [UUID: EffectFacts], types: SwiftTypeTable?, clients: [DependencyKeyRecord]?
  ) {
    // The architecture's own keys (uuid, date, clock …) are the test's to set, above.
    self.clients = clients.map { keys in
      keys.filter { !$0.keyType.hasPrefix("ComposableCore.") }
        .sorted { ($0.valueType, $0.keyType) < ($1.valueType, $1.keyType) }
    }
    typed = types.map { TypedSwiftText(state: $0.state, action: $0.action) }
    // The initial state is always decoded: its type's initializer is not in the trace.
    typed?.noteRecorded(statePattern: "")
    self.options = options
    self.summary = summary
    self.initialState = initialState
    self.effects = effects
    previousNanos = initialNanos
  }

  /// Adds one recorded step.
  mutating func add(
    _ step: StepRow, action: TraceValue, changes: [TraceChange], reads: [DependencyRead]
  ) {
    for read in reads {
      switch read.key {
      case "uuid": uuids.append(read.value)
      case "date": dates.append(read.value)
      case "random": randoms.append(read.value)
      default: break
      }
    }
    if step.monotonicNanos > previousNanos {
      body.append("await clock.advance(by: \(Self.duration(step.monotonicNanos - previousNanos)))")
    }
    previousNanos = max(previousNanos, step.monotonicNanos)
    let (verb, comment) = describe(step)
    body.append("// Step \(step.step): \(comment)")
    let actionText =
      typed?.action(action, width: Self.width - 8)
      ?? SwiftValueText.expression(action, width: Self.width - 8)
    var call = "await store.\(verb)("
    if SwiftValueText.throwsWhenDecoded(actionText) { call = "try " + call }
    if call.count + actionText.count + 6 > Self.width - 4 || actionText.contains("\n") {
      // The action on lines of its own.
      call += "\n" + SwiftValueText.indented(actionText, by: "  ") + "\n)"
    } else {
      call += actionText + ")"
    }
    let assertions = changes.map { change in
      guard let statement = typed?.statement(change) else { return Self.assertion(change) }
      return (SwiftValueText.throwsWhenDecoded(statement) ? "try " : "") + statement
    }
    if assertions.isEmpty {
      body.append(call)
    } else {
      body.append(call + " {")
      for line in assertions { body.append(SwiftValueText.indented(line, by: "  ")) }
      body.append("}")
    }
  }

  /// Whether a step is sent or received, and who sent it.
  private func describe(_ step: StepRow) -> (verb: String, comment: String) {
    switch step.origin {
    case .effect(let id):
      guard let effect = effects[id] else {
        return ("send", "sent by an effect the trace has no record of")
      }
      if effect.startedByStep >= options.from {
        return ("receive", "sent by the effect step \(effect.startedByStep) started")
      }
      return (
        "send", "sent by an effect step \(effect.startedByStep) started, before this test"
      )
    case .send(let origin):
      if origin >= options.from {
        return ("receive", "the .send step \(origin) returned")
      }
      return ("send", "the .send step \(origin) returned, before this test")
    case .user, .initial: return ("send", "sent by the user")
    case .observer: return ("send", "sent by an observer")
    case .inspector: return ("send", "sent by an attached inspector")
    // `TestgenCommand` refuses a range with an inspector's jump or continue before adding it.
    case .jump, .continued: return ("send", step.origin.inspectorStepText ?? "")
    }
  }

  /// One recorded change as a line of the assertion closure.
  static func assertion(_ change: TraceChange) -> String {
    let path = change.path
    if case .set(_, let value) = change, path.components.count == 1,
      case .key(let name) = path.components[0], SwiftValueText.isIdentifier(name)
    {
      let expression = SwiftValueText.expression(value)
      return "$0.\(SwiftValueText.identifier(name)) = "
        + (SwiftValueText.throwsWhenDecoded(expression) ? "try " : "") + expression
    }
    let pathText = SwiftValueText.rawString(path.description)
    switch change {
    case .set(_, let value) where path.components.isEmpty:
      return "$0 = try .recorded(\(SwiftValueText.literal(value)))"
    case .set(_, let value):
      return "try $0.recorded(set: \(pathText), \(SwiftValueText.literal(value)))"
    case .insert(_, let value):
      return "try $0.recorded(insert: \(pathText), \(SwiftValueText.literal(value)))"
    case .remove:
      return "try $0.recorded(remove: \(pathText))"
    }
  }

  /// `.milliseconds(400)`, `.microseconds(250)` or `.nanoseconds(17)`: the largest exact unit.
  static func duration(_ nanos: UInt64) -> String {
    if nanos % 1_000_000 == 0 { return ".milliseconds(\(integer(nanos / 1_000_000)))" }
    if nanos % 1_000 == 0 { return ".microseconds(\(integer(nanos / 1_000)))" }
    return ".nanoseconds(\(integer(nanos)))"
  }

  /// `1_500` for 1500: a Swift integer literal grouped by thousands.
  static func integer(_ value: UInt64) -> String {
    NumberText.grouped(Int(clamping: value)).replacingOccurrences(of: ",", with: "_")
  }
}
