/// Every command the inspector knows, with its command line and help.
///
/// ```swift
/// Commands.spec(named: "tree")?.summary  // "the reducer tree, with steps and effects per node"
/// ```
enum Commands {
  static let all: [CommandSpec] = [
    open, info, log, show, diff, tree, effects, replay, compare, follow, export, testgen,
  ] + LiveCommands.specs

  static func spec(named name: String) -> CommandSpec? {
    all.first { $0.name == name }
  }

  static let trace = CommandSpec.Positional(
    name: "TRACE", required: true, help: "the trace file (.rewind)")
  static let json = CommandSpec.Option(
    name: "--json", value: nil, help: "print one JSON document instead of text")

  static let open = CommandSpec(
    name: "open",
    summary: "move through the trace in the terminal: steps, diffs, state, effects, tree",
    positionals: [
      .init(name: "TRACE", required: false, help: "the trace file (.rewind), unless --attach")
    ],
    options: [
      .init(name: "--step", value: "N", help: "start on step N (default 0)"),
      .init(
        name: "--attach", value: "PID|NAME",
        help: "a running app instead of a file: its history, then its steps as they happen"),
    ],
    example: "inspector open bug.rewind --step 120",
    details: """
      Keys: arrows or j/k move, Tab switches tabs, / searches action paths, f keeps the steps
      that changed a state path, [ and ] go to the previous or next change of the value under
      the State cursor, m and ' set and visit marks, d diffs the last mark against the cursor,
      ? lists every key, q quits. Attached to an app, p pauses it, J jumps it to the step
      under the cursor, r resumes it and c continues from the jumped state. It needs a
      terminal: piped, or with TERM=dumb, it exits with status 2 and names the batch commands.
      """)

  static let info = CommandSpec(
    name: "info",
    summary: "format version, types, steps, effects, time span, size and compression",
    positionals: [trace],
    options: [json],
    example: "inspector info bug.rewind")

  static let log = CommandSpec(
    name: "log",
    summary: "one line per step: number, time, origin, action and the state paths it changed",
    positionals: [trace],
    options: [
      .init(name: "--from", value: "N", help: "first step to list (default 0)"),
      .init(name: "--to", value: "N", help: "last step to list (default: the last step)"),
      .init(name: "--grep", value: "REGEX", help: "only steps whose action path matches REGEX"),
      .init(
        name: "--path", value: "P",
        help: "only steps that changed state path P or a path inside it"),
      .init(name: "--origin", value: "ORIGIN", help: "only steps sent by 'user' or an 'effect'"),
      .init(name: "--limit", value: "N", help: "stop after N lines"),
      json,
    ],
    example: "inspector log bug.rewind --grep 'todos\\..*' --path todos --limit 20")

  static let show = CommandSpec(
    name: "show",
    summary: "the full state after a step",
    positionals: [trace, .init(name: "STEP", required: true, help: "the step number")],
    options: [
      .init(name: "--path", value: "P", help: "only the part of the state at path P"),
      .init(
        name: "--max-items", value: "N",
        help: "elements shown per collection before folding (default 50, 0: all)"),
      json,
    ],
    example: "inspector show bug.rewind 120 --path 'todos[id: 3]'")

  static let diff = CommandSpec(
    name: "diff",
    summary: "the state diff between steps A and B (default: A against A-1)",
    positionals: [
      trace,
      .init(name: "A", required: true, help: "the first step"),
      .init(name: "B", required: false, help: "the second step"),
    ],
    options: [
      .init(name: "--path", value: "P", help: "only the part of the state at path P"),
      .init(
        name: "--context", value: "N",
        help: "unchanged siblings shown around each change (default 0)"),
      json,
    ],
    example: "inspector diff bug.rewind 41 57 --path todos --context 1")

  static let tree = CommandSpec(
    name: "tree",
    summary: "the reducer tree, with steps and effects per node",
    positionals: [trace],
    options: [json],
    example: "inspector tree bug.rewind")

  static let effects = CommandSpec(
    name: "effects",
    summary: "every effect: id, step, cancellation id, outcome, duration, actions sent",
    positionals: [trace],
    options: [
      .init(name: "--running", value: nil, help: "only effects still running (or unfinished)"),
      .init(name: "--cancelled", value: nil, help: "only cancelled effects"),
      .init(name: "--step", value: "N", help: "only effects started by step N"),
      .init(name: "--timeline", value: nil, help: "draw start and end of each effect in time"),
      json,
    ],
    example: "inspector effects bug.rewind --cancelled --timeline")

  static let replay = CommandSpec(
    name: "replay",
    summary: "rebuild every state from keyframes and diffs and check every hash",
    positionals: [trace],
    options: [],
    example: "inspector replay bug.rewind",
    details: """
      Exit status 0 when every state matches its recorded hash, 1 at the first mismatch (the \
      step, both hashes and the diff are printed), 2 when the trace cannot be read.
      """)

  static let compare = CommandSpec(
    name: "compare",
    summary: "two traces of one feature step by step, up to the first step that differs",
    positionals: [
      .init(name: "A", required: true, help: "the first trace file (.rewind)"),
      .init(name: "B", required: true, help: "the second trace file (.rewind)"),
    ],
    options: [json],
    example: "inspector compare before.rewind after.rewind",
    details: """
      Steps are aligned by number. The first step whose action differs (its origin, case path \
      or payload; an effect is named by the step that started it), or whose state differs \
      after the same action, is shown with the steps before it from both traces and the state \
      diff (A: -, B: +); so is a trace that ends before the other. Each trace is read once, \
      up to that step. Exit status 0 when the traces are the same, 1 when they differ, 2 when \
      one cannot be read.
      """)

  static let follow = CommandSpec(
    name: "follow",
    summary: "print steps as a running process writes them; stops when the trace is closed",
    positionals: [trace],
    options: [
      .init(name: "--from-start", value: nil, help: "print the steps already written first"),
      .init(
        name: "--wait", value: "SECONDS",
        help: "how long to wait for the trace to appear and become readable (default 5)"),
    ],
    example: "inspector follow live.rewind --from-start",
    details: "Ctrl-C stops following (exit status 0).")

  static let export = CommandSpec(
    name: "export",
    summary: "the trace, or a range of steps, as one JSON document or a Perfetto timeline",
    positionals: [trace],
    options: [
      .init(
        name: "--format", value: "FORMAT",
        help: "json (the default), or perfetto: a timeline for ui.perfetto.dev"),
      .init(name: "--from", value: "N", help: "first step (default 0)"),
      .init(name: "--to", value: "N", help: "last step (default: the last step)"),
    ],
    example: "inspector export bug.rewind --format json --from 100 --to 200 > part.json",
    details: ExportDocument.shape)

  static let testgen = CommandSpec(
    name: "testgen",
    summary: "a Swift test that replays steps through a TestStore of the root feature",
    positionals: [trace],
    options: [
      .init(name: "--from", value: "A", help: "first step (default 1)"),
      .init(name: "--to", value: "B", help: "last step (default: the last step)"),
      .init(name: "--swift-testing", value: nil, help: "a Swift Testing test instead of XCTest"),
      .init(
        name: "--reducer", value: "EXPR",
        help: "the reducer the test runs (default: RootReducer())"),
      .init(
        name: "--import", value: "MODULES",
        help: "more modules to import, comma-separated"),
      .init(
        name: "--dependency", value: "KEY=EXPR,…",
        help: "clients to set after those the trace names (messageClient=.live)"),
      .init(name: "--name", value: "NAME", help: "the test type's name"),
    ],
    example: "inspector testgen bug.rewind --from 1 --to 6 > Tests/AppTests/BugTests.swift",
    details: """
      Each step the user sent becomes `await store.send(…) { … }`, each step an effect sent
      `await store.receive(…) { … }`, with the state changes the trace recorded as exhaustive
      assertions written as Swift mutations from the Swift types the trace recorded; a
      TestClock advances by the recorded time between steps, the uuid, date and random values
      the reducer read are served back in order, and the clients the feature read are named
      with their test values. Values the trace cannot write as Swift are decoded with
      `.recorded(…)` (module TraceRecorder), and the test's header says which and why.
      """)
}
