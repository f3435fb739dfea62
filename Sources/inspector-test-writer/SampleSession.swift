import Foundation
import TraceKit

/// A deterministic feature-like session: a counter, a nested child, an identified array of
/// todos, an enum mode and a string holding an escape sequence, with effects that finish, are
/// cancelled and are left running. The same step number always gives the same record, so the
/// inspector's output on it can be compared with snapshot files.
struct SampleSession {
  static let metadata = TraceMetadata(
    rootReducer: "AppFeature", stateType: "AppFeature.State", actionType: "AppFeature.Action",
    keyframeInterval: 4, extra: ["scenario": "inspector-sample"])

  static let timerEffect = UUID(uuidString: "7E1A0C11-0000-4000-8000-00000000000A")!
  static let loadEffect = UUID(uuidString: "4B0D2E77-0000-4000-8000-00000000000B")!
  static let factEffect = UUID(uuidString: "C3F09A5D-0000-4000-8000-00000000000C")!

  static let tree = ReducerTreeNode(
    kind: "Recorder", typeName: "AppFeature", statePath: nil, actionPrefix: nil,
    children: [
      ReducerTreeNode(
        kind: "CombineReducers", typeName: "AppFeature", statePath: nil, actionPrefix: nil,
        children: [
          ReducerTreeNode(
            kind: "Scope", typeName: "CounterFeature", statePath: "count",
            actionPrefix: "counter", children: []),
          ReducerTreeNode(
            kind: "Scope", typeName: "ChildFeature", statePath: "child", actionPrefix: "child",
            children: [
              ReducerTreeNode(
                kind: "Reduce", typeName: "ChildFeature", statePath: nil, actionPrefix: nil,
                children: [])
            ]),
          ReducerTreeNode(
            kind: "forEach", typeName: "TodoFeature", statePath: "todos",
            actionPrefix: "todos.todo", children: []),
          ReducerTreeNode(
            kind: "Reduce", typeName: "AppFeature", statePath: nil, actionPrefix: nil,
            children: []),
        ])
    ])

  /// What an increment adds: another amount records the same actions with other states
  /// (two recordings of a feature before and after a change, for `inspector compare`).
  var increment: Int64 = 1
  private(set) var step = 0
  private(set) var count: Int64 = 0
  private(set) var isOn = false
  private(set) var ticks: Int64 = 0
  private(set) var todos: [(id: Int64, title: String, done: Bool)] = []
  private(set) var mode: TraceValue = .enumCase("idle", [])
  private(set) var banner = "welcome"

  var state: TraceValue {
    .object([
      TraceField("count", .int(count)),
      TraceField(
        "child",
        .object([
          TraceField("isOn", .bool(isOn)), TraceField("ticks", .int(ticks)),
        ])),
      TraceField(
        "todos",
        .array(
          todos.map { todo in
            .object([
              TraceField("id", .int(todo.id)), TraceField("title", .string(todo.title)),
              TraceField("done", .bool(todo.done)),
            ])
          })),
      TraceField("mode", mode),
      TraceField("banner", .string(banner)),
    ])
  }

  /// What happens to effects at a step, for the writer to record.
  enum EffectEvent {
    case started(EffectRecord)
    case sent(UUID)
    case ended(UUID, EffectOutcome)
  }

  static func nanos(_ step: Int) -> UInt64 {
    UInt64(step) * 125_000_000 + UInt64(step % 3) * 7_000
  }

  static func action(_ path: String, _ fields: [TraceField] = []) -> TraceValue {
    let names = path.split(separator: ".").map(String.init)
    var value = TraceValue.enumCase(names[names.count - 1], fields)
    for name in names.dropLast().reversed() {
      value = .enumCase(name, [TraceField("_0", value)])
    }
    return value
  }

  /// Advances one step: the record (with the real hash of the new state) and effect events.
  mutating func next() -> (record: StepRecord, state: TraceValue, effects: [EffectEvent]) {
    let old = state
    step += 1
    var origin = StepOrigin.user
    var effects: [EffectEvent] = []
    let path: String
    var fields: [TraceField] = []
    switch step {
    case 1:
      path = "counter.incrementTapped"
      count += increment
    case 2, 3:
      let title = step == 2 ? "Buy milk" : "Walk the dog"
      path = "todos.addTapped"
      fields = [TraceField("title", .string(title))]
      todos.append((Int64(step - 1), title, false))
    case 4:
      path = "todos.todo.toggled"
      fields = [TraceField("id", .int(1))]
      todos[0].done = true
    case 5:
      path = "child.toggleTapped"
      isOn = true
      effects.append(
        .started(
          EffectRecord(
            id: Self.timerEffect, startedByStep: 5, cancelID: "child.timer",
            file: "/app/Sources/Child.swift", line: 42, startNanos: Self.nanos(5))))
    case 6:
      path = "child.timerTicked"
      origin = .effect(Self.timerEffect)
      ticks += 1
      effects.append(.sent(Self.timerEffect))
    case 7:
      path = "bannerReceived"
      fields = [TraceField("_0", .string("\u{1B}[31mALERT\u{1B}[0m"))]
      banner = "\u{1B}[31mALERT\u{1B}[0m"
    case 8:
      path = "loadTapped"
      mode = .enumCase("loading", [TraceField("requestID", .int(7))])
      effects.append(
        .started(
          EffectRecord(
            id: Self.loadEffect, startedByStep: 8, file: "/app/Sources/App.swift", line: 88,
            startNanos: Self.nanos(8))))
    case 9:
      path = "loadResponse.success"
      fields = [TraceField("_0", .int(2))]
      origin = .effect(Self.loadEffect)
      mode = .enumCase("loaded", [TraceField("_0", .int(2))])
      effects.append(.sent(Self.loadEffect))
      effects.append(.ended(Self.loadEffect, .finished))
    case 10:
      path = "todos.removeTapped"
      fields = [TraceField("id", .int(2))]
      todos.removeAll { $0.id == 2 }
    case 11:
      path = "child.toggleTapped"
      isOn = false
      effects.append(.ended(Self.timerEffect, .cancelled(reason: "cancel", byStep: 11)))
    case 12:
      path = "counter.factTapped"
      mode = .enumCase("idle", [])
      effects.append(
        .started(
          EffectRecord(
            id: Self.factEffect, startedByStep: 12, cancelID: "counter.fact",
            file: "/app/Sources/Counter.swift", line: 17, startNanos: Self.nanos(12))))
    default:
      // Past the script: a long, repetitive session (followers and benchmarks).
      if step % 10 == 0, todos.count < 100 {
        path = "todos.addTapped"
        let title = "Todo \(step)"
        fields = [TraceField("title", .string(title))]
        todos.append((Int64(step), title, false))
      } else if step % 10 == 5, !todos.isEmpty {
        path = "todos.todo.toggled"
        let index = step / 10 % todos.count
        fields = [TraceField("id", .int(todos[index].id))]
        todos[index].done.toggle()
      } else {
        path = "counter.incrementTapped"
        count += increment
      }
    }
    let new = state
    // The changed paths the Recorder indexes: leaf-most, an inserted todo by its id.
    let (changes, changedPaths) = TraceDiff.changesAndPaths(from: old, to: new)
    var seen = Set<String>()
    let paths = changedPaths.map(\.description).filter { seen.insert($0).inserted }
    let nanos = Self.nanos(step)
    let record = StepRecord(
      step: step, monotonicNanos: nanos, wallTime: 1_780_000_000 + Double(nanos) / 1e9,
      origin: origin, actionPath: path, action: Self.action(path, fields), changes: changes,
      changedPaths: paths, stateHash: new.stableHash, reducerNanos: 900 + UInt64(step % 7) * 100)
    return (record, new, effects)
  }
}
