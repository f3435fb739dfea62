/// A parsed `rewind-demo` command line.
///
/// ```swift
/// try DemoCommand.parse(["record", "counter", "--out", "c.rewind", "--seed", "7"])
/// // .record(scenario: "counter", out: "c.rewind", steps: 24, seed: 7, force: false)
/// ```
enum DemoCommand: Equatable {
  case help
  case version
  case list
  case record(scenario: String, out: String, steps: Int, seed: UInt64, force: Bool)
  case run(scenario: String, options: LiveOptions)
  case replay(scenario: String, trace: String, chaos: Int?, seed: UInt64)

  /// The scripted user actions of a `record` without `--steps`.
  static let defaultSteps = 24
  /// The seed of a `record` without `--seed`.
  static let defaultSeed: UInt64 = 1

  static let usage = """
    usage: rewind-demo COMMAND …

    commands:
      list                                      the scenarios
      record SCENARIO --out FILE [--steps N] [--seed S] [--force]
                                                a scripted, seeded session, recorded
      run SCENARIO [--out FILE] [--live] [--duration SECONDS] [--steps N] [--seed S]
          [--pause MS] [--force]                a live session, recorded until Ctrl-C: to
                                                FILE, and (--live) in memory for inspector
                                                attach
      replay SCENARIO FILE [--chaos N] [--seed S]
                                                replays a trace through the scenario's
                                                replay reducer (the fixed one for
                                                todos-buggy): exit 0 when every step
                                                matches, 1 otherwise; with --chaos, runs N
                                                orders of the effects' deliveries instead:
                                                exit 0 when each ends as recorded, 1 otherwise

    --out FILE     the trace to write; its directory must exist
    --live         listen for inspector ps, attach, pause, jump, … (run needs --out,
                   --live, or both)
    --force        replace FILE (and its -wal and -shm files) if it exists
    --steps N      scripted user actions after the scenario's opening ones (record: default
                   24; run: without end, or N then idle until stopped)
    --seed S       the script's random seed: the same seed makes the same choices
                   (default 1; run: a new seed each time)
    --pause MS     run: the longest pause between two user actions (default: the
                   scenario's; 0 sends them back to back)
    --duration S   stop after S seconds
    --chaos N      replay N schedules (1 to 100000) of the deliveries, from --seed
    --help         this help (also after a command: rewind-demo record --help)
    --version      the version, and the trace format versions it reads
    """

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> DemoCommand {
    guard let command = arguments.first else {
      throw UsageError("missing command (commands: list, record, run, replay; see --help)")
    }
    // `rewind-demo record --help` asks for help, not for a scenario named "--help".
    if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
    var rest = ArgumentList(command: command, arguments: Array(arguments.dropFirst()))
    switch command {
    case "help", "--help", "-h":
      try rest.expectEnd()
      return .help
    case "--version":
      try rest.expectEnd()
      return .version
    case "list":
      try rest.expectEnd()
      return .list
    case "record":
      let scenario = try rest.scenario()
      let options = try rest.options(["--out", "--steps", "--seed"], flags: ["--force"])
      let out = try options.required("--out", placeholder: "FILE")
      let steps = try options.integer("--steps", in: 0...10_000) ?? defaultSteps
      let seed = try options.seed("--seed") ?? defaultSeed
      return .record(
        scenario: scenario, out: out, steps: steps, seed: seed, force: options.flag("--force"))
    case "run":
      let scenario = try rest.scenario()
      let options = try rest.options(
        ["--out", "--duration", "--steps", "--seed", "--pause"], flags: ["--force", "--live"])
      let live = LiveOptions(
        out: options.values["--out"], live: options.flag("--live"),
        duration: try options.seconds("--duration"),
        steps: try options.integer("--steps", in: 0...1_000_000),
        seed: try options.seed("--seed"),
        longestPause: try options.integer("--pause", in: 0...60_000).map { .milliseconds($0) },
        force: options.flag("--force"))
      guard live.out != nil || live.live else {
        throw UsageError("run: --out FILE, --live or both are required")
      }
      return .run(scenario: scenario, options: live)
    case "replay":
      let scenario = try rest.scenario()
      let trace = try rest.positional("FILE")
      let options = try rest.options(["--chaos", "--seed"])
      let chaos = try options.integer("--chaos", in: 1...100_000)
      let seed = try options.seed("--seed") ?? defaultSeed
      if chaos == nil, options.values["--seed"] != nil {
        throw UsageError("replay: --seed chooses the schedules of --chaos, which is missing")
      }
      return .replay(scenario: scenario, trace: trace, chaos: chaos, seed: seed)
    default:
      throw UsageError("unknown command '\(command)' (commands: list, record, run, replay)")
    }
  }
}
