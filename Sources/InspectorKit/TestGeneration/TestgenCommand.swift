import Foundation
import TraceKit

/// `inspector testgen TRACE [--from A] [--to B] [--swift-testing] …`: prints a Swift test that
/// drives a `TestStore` of the trace's root feature through steps A…B as they were recorded
/// (see `GeneratedTest`).
///
/// ```
/// $ inspector testgen bug.rewind --from 1 --to 6 > Tests/AppTests/BugTests.swift
/// ```
enum TestgenCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput)
    throws(InspectorError)
  {
    let arguments = context.arguments
    let source = context.source
    let summary = try source.summary()
    guard summary.stepCount >= 1 else {
      throw .input("the trace has no step after the initial state", where: source.path)
    }
    let from = try arguments.integer("--from") ?? 1
    let to = try arguments.integer("--to") ?? summary.stepCount
    try context.checkStep(from, in: summary, lowest: 1)
    try context.checkStep(to, in: summary, lowest: 1)
    guard from <= to else {
      throw .usage("--from \(from) is after --to \(to)", where: "testgen")
    }
    if let gap = summary.gaps.first(where: { $0.afterStep + 1 <= to && $0.afterStep >= from - 1 })
    {
      throw .input(
        "steps \(gap.afterStep + 1)…\(gap.afterStep + gap.dropped) were dropped by the "
          + "recorder, so no test can replay them: choose a range without them",
        where: source.path)
    }
    let options = try Self.options(context, from: from, to: to)
    var effects: [UUID: GeneratedTest.EffectFacts] = [:]
    for effect in try source.effects() {
      effects[effect.id] = .init(startedByStep: effect.startedByStep, endNanos: effect.endNanos)
    }
    var initialNanos: UInt64 = 0
    try source.forEachStep(from: from - 1, to: from - 1) { entry throws(InspectorError) in
      initialNanos = entry.monotonicNanos
      return false
    }
    var test = GeneratedTest(
      options: options, summary: summary, initialState: try source.state(at: from - 1),
      initialNanos: initialNanos, effects: effects, types: try source.swiftTypes(),
      clients: try source.dependencyKeys())
    var lastNanos: UInt64 = 0
    try source.forEachStepContent(from: from, to: to) { entry, content throws(InspectorError) in
      if let text = entry.origin.inspectorStepText {
        throw .input(
          "step \(entry.step) is an attached inspector's \(text), which a TestStore cannot "
            + "send: choose a range without it",
          where: source.path)
      }
      test.add(
        entry, action: try content.action(), changes: try content.changes(),
        reads: try content.dependencies())
      lastNanos = entry.monotonicNanos
      return true
    }
    let running = effects.values.filter { effect in
      (from...to).contains(effect.startedByStep)
        && (effect.endNanos.map { $0 > lastNanos } ?? true)
    }
    test.body.append("")
    if running.isEmpty {
      test.body.append("await store.finish()")
    } else {
      test.body.append(
        "// \(NumberText.counted(running.count, "effect")) this test started "
          + (running.count == 1 ? "was" : "were") + " still running after step \(to).")
      test.body.append("store.skipInFlightEffects()")
    }
    out.write(test.source)
  }

  /// The options as the generated test records them, with the command line that makes it.
  static func options(_ context: CommandContext, from: Int, to: Int) throws(InspectorError)
    -> GeneratedTest.Options
  {
    let arguments = context.arguments
    let traceName = URL(fileURLWithPath: context.source.path).lastPathComponent
    var line = "inspector testgen \(traceName) --from \(from) --to \(to)"
    let swiftTesting = arguments.flag("--swift-testing")
    if swiftTesting { line += " --swift-testing" }
    let imports = list(arguments.value("--import"))
    if !imports.isEmpty { line += " --import " + imports.joined(separator: ",") }
    var dependencies: [(key: String, value: String)] = []
    for item in list(arguments.value("--dependency")) {
      guard let equals = item.firstIndex(of: "="),
        SwiftValueText.isIdentifier(String(item[..<equals]))
      else {
        throw .usage(
          "invalid dependency '\(item)': expected KEY=EXPRESSION, e.g. messageClient=.live",
          where: "testgen --dependency")
      }
      dependencies.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
    }
    if !dependencies.isEmpty {
      line += " --dependency " + dependencies.map { "\($0.key)=\($0.value)" }
        .joined(separator: ",")
    }
    let reducer = arguments.value("--reducer")
    if let reducer { line += " --reducer '\(reducer)'" }
    let name = arguments.value("--name")
    if let name {
      guard SwiftValueText.isIdentifier(name) else {
        throw .usage("invalid test name '\(name)'", where: "testgen --name")
      }
      line += " --name \(name)"
    }
    return GeneratedTest.Options(
      traceName: traceName, from: from, to: to, swiftTesting: swiftTesting, reducer: reducer,
      imports: imports, dependencies: dependencies, name: name, commandLine: line)
  }

  private static func list(_ value: String?) -> [String] {
    (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }
}
