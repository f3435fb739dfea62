import LiveAttach

/// The commands that talk to a running app instead of reading a trace file: `ps`, `attach`,
/// `pause`, `resume`, `jump`, `continue`, `send` and `dump`.
///
/// ```swift
/// LiveCommands.isLive("jump")   // true
/// ```
enum LiveCommands {
  static let app = CommandSpec.Positional(
    name: "APP", required: true, help: "the app: its pid, or the name it listens under")

  static let specs: [CommandSpec] = [ps, attach, pause, resume, jump, continueFromHere, send, dump]

  static func isLive(_ command: String) -> Bool {
    specs.contains { $0.name == command }
  }

  static let ps = CommandSpec(
    name: "ps",
    summary: "the running apps of this user that an inspector can attach to",
    positionals: [],
    options: [Commands.json],
    example: "inspector ps",
    details: """
      An app listens when its Recorder has live attach on (Recorder.Configuration(live:)).
      A socket left by an app that was killed is removed, and said so on stderr.
      """)

  static let attach = CommandSpec(
    name: "attach",
    summary: "print an app's steps: what it holds in memory, then each step as it happens",
    positionals: [app],
    options: [],
    example: "inspector attach rewind-demo",
    details: "It ends when the app ends (exit status 0), or on Ctrl-C.")

  static let pause = CommandSpec(
    name: "pause",
    summary: "hold the app's actions (from the user and from effects) until resume",
    positionals: [app],
    options: [],
    example: "inspector pause 4242")

  static let resume = CommandSpec(
    name: "resume",
    summary: "return a jumped app to its present, then reduce the actions it held",
    positionals: [app],
    options: [],
    example: "inspector resume 4242")

  static let jump = CommandSpec(
    name: "jump",
    summary: "show the recorded state after step N in the running app (it pauses)",
    positionals: [app, .init(name: "STEP", required: true, help: "a step the app holds")],
    options: [],
    example: "inspector jump rewind-demo 12",
    details: """
      The state is decoded with the app's Decodable state and must encode to the hash
      recorded for the step. resume returns to the present; continue goes on from here.
      """)

  static let continueFromHere = CommandSpec(
    name: "continue",
    summary: "go on from a jumped state: the effects of the future it leaves are cancelled",
    positionals: [app],
    options: [],
    example: "inspector continue 4242")

  static let send = CommandSpec(
    name: "send",
    summary: "reduce an action in the app, sent by the inspector",
    positionals: [
      app,
      .init(
        name: "ACTION", required: true,
        help: "the action as JSON in the trace's encoding, e.g. '{\"$case\":\"plus\"}'"),
    ],
    options: [],
    example: "inspector send rewind-demo '{\"$case\":\"plus\"}'")

  static let dump = CommandSpec(
    name: "dump",
    summary: "write the history an app holds in memory to a trace file",
    positionals: [app],
    options: [.init(name: "--out", value: "FILE", help: "the trace to write (it must not exist)")],
    example: "inspector dump rewind-demo --out session.rewind")

  /// Runs a live command. Exit status: 0 done, 1 the app refused, 2 bad usage or an app that
  /// cannot be reached.
  static func run(_ context: LiveContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    switch context.arguments.command {
    case "ps": try PsCommand.run(context, out: &out)
    case "attach": try AttachCommand.run(context, out: &out)
    case "dump": try DumpCommand.run(context, out: &out)
    default: try ControlCommand.run(context, out: &out)
    }
  }
}
