import Foundation
import TestSupport
import TraceKit

@testable import InspectorKit

/// A small feature-like session in memory, and a way to run the inspector on it.
enum SampleTrace {
  static let effectA = UUID(uuidString: "5A1C0E42-0000-4000-8000-000000000001")!
  static let effectB = UUID(uuidString: "9B07D1AA-0000-4000-8000-000000000002")!

  static func source() -> MemoryTraceSource {
    let s0 = SampleValues.state()
    let s1 = SampleValues.state(count: 1)
    let s2 = SampleValues.state(count: 1, todos: [SampleValues.todo(1, "Milk")])
    let s3 = SampleValues.state(
      count: 1, todos: [SampleValues.todo(1, "Milk", done: true)],
      mode: .enumCase("loading", [TraceField("_0", .int(3))]))
    let s4 = SampleValues.state(
      count: 2, isOn: true, todos: [SampleValues.todo(1, "Milk", done: true)],
      mode: .enumCase("loading", [TraceField("_0", .int(3))]))
    let action = { (names: [String], payload: [TraceField]) -> TraceValue in
      var value = TraceValue.enumCase(names.last!, payload)
      for name in names.dropLast().reversed() {
        value = .enumCase(name, [TraceField("_0", value)])
      }
      return value
    }
    return MemoryTraceSource(
      states: [s0, s1, s2, s3, s4],
      actions: [
        ("counter.incrementTapped", action(["counter", "incrementTapped"], [])),
        ("todos.added", action(["todos", "added"], [TraceField("title", .string("Milk"))])),
        ("todos.toggled", action(["todos", "toggled"], [TraceField("_0", .int(1))])),
        ("child.toggled", action(["child", "toggled"], [])),
      ],
      origins: [.initial, .user, .user, .effect(effectA), .user],
      effects: [
        EffectRecord(
          id: effectA, startedByStep: 2, cancelID: nil, file: "/src/Todos.swift", line: 41,
          startNanos: 500_000_000, endNanos: 760_000_000, outcome: .finished, sentSteps: [3]),
        EffectRecord(
          id: effectB, startedByStep: 4, cancelID: "timer", file: "/src/Child.swift", line: 12,
          startNanos: 1_000_000_000, endNanos: nil, outcome: .unfinished, sentSteps: []),
      ],
      tree: ReducerTreeNode(
        kind: "Recorder", typeName: "AppFeature",
        children: [
          ReducerTreeNode(
            kind: "Scope", typeName: "CounterFeature", statePath: "count",
            actionPrefix: "counter"),
          ReducerTreeNode(
            kind: "forEach", typeName: "TodoFeature", statePath: "todos", actionPrefix: "todos"),
          ReducerTreeNode(kind: "Reduce", typeName: "AppFeature"),
        ]))
  }

  struct Result: Equatable {
    var out: String
    var err: String
    var status: Int32
  }

  static func run(
    _ arguments: [String], source: MemoryTraceSource? = nil, width: Int = 80,
    colour: Bool = false, interrupted: Bool = false
  ) -> Result {
    let trace = source ?? Self.source()
    let box = SourceBox(trace)
    let inspector = Inspector(
      terminal: FixedTerminal(width: width, colour: colour),
      interruption: interrupted ? Interruption { true } : .never,
      open: { path throws(InspectorError) in
        guard path == box.source.path else {
          throw .input("no such file", where: path)
        }
        return box.source
      })
    var out = ""
    var err = ""
    let status = inspector.run(arguments, out: &out, err: &err)
    return Result(out: out, err: err, status: status)
  }
}

/// Hands a non-Sendable test source to the Sendable opener; tests run on one thread.
final class SourceBox: @unchecked Sendable {
  let source: MemoryTraceSource
  init(_ source: MemoryTraceSource) { self.source = source }
}
