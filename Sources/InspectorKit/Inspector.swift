import Foundation
import LiveAttach

/// The inspector as a library: parses a command line, runs the command against a trace and
/// writes to the given streams. The executable only hands it `CommandLine.arguments` and exits
/// with the status it returns.
///
/// ```swift
/// var out = StandardStream.output
/// var err = StandardStream.error
/// let status = Inspector(environment: env).run(["info", "bug.rewind"], out: &out, err: &err)
/// // status 0; stdout: "format     1\nreducer    AppFeature\n…"
/// ```
public struct Inspector: Sendable {
  package typealias Opener = @Sendable (String) throws(InspectorError) -> any TraceSource

  let terminal: any Terminal
  let open: Opener
  let interruption: Interruption
  /// Where running apps listen (`LiveDirectory.location`): the live commands look there.
  let liveLocation: String

  package init(
    terminal: any Terminal, interruption: Interruption,
    liveLocation: String = LiveDirectory.location(
      environment: ProcessInfo.processInfo.environment),
    open: @escaping Opener
  ) {
    self.terminal = terminal
    self.interruption = interruption
    self.liveLocation = liveLocation
    self.open = open
  }

  /// Runs one command line (without the program name) and returns the exit status:
  /// 0 success, 1 a failed check, 2 bad usage or unreadable input.
  public func run(
    _ arguments: [String], out: inout some FlushingOutput, err: inout some FlushingOutput
  ) -> Int32 {
    do throws(InspectorError) {
      switch try ArgumentParser.parse(arguments) {
      case .help(let text):
        out.write(text)
      case .run(let parsed):
        if LiveCommands.isLive(parsed.command) {
          let context = LiveContext(
            arguments: parsed, location: liveLocation, terminal: terminal,
            style: Style(colour: terminal.colour), interruption: interruption)
          try LiveCommands.run(context, out: &out)
          out.flush()
          return 0
        }
        let source: any TraceSource
        if parsed.command == "follow" {
          // Started before the writer's first commit, `follow` waits for the trace.
          guard
            let opened = try FollowCommand.waitForTrace(
              parsed, open: open, interruption: interruption)
          else {
            out.flush()
            return 0
          }
          source = opened
        } else if parsed.command == "open", let target = parsed.value("--attach") {
          guard parsed.positionals.isEmpty else {
            throw .usage("give a TRACE or --attach, not both", where: "open")
          }
          source = try LiveTraceSource.attach(
            target, location: liveLocation, interruption: interruption)
        } else if let path = parsed.positionals.first {
          source = try open(path)
        } else {
          throw .usage("missing argument TRACE", where: parsed.command)
        }
        let context = CommandContext(
          arguments: parsed, source: source, terminal: terminal,
          style: Style(colour: terminal.colour), interruption: interruption)
        try Self.dispatch(context, out: &out, err: &err)
      }
      out.flush()
      return 0
    } catch {
      out.flush()
      err.write(error.line + "\n")
      err.flush()
      return error.exitCode
    }
  }

  static func dispatch(
    _ context: CommandContext, out: inout some FlushingOutput, err: inout some FlushingOutput
  ) throws(InspectorError) {
    switch context.arguments.command {
    case "open": try OpenCommand.run(context)
    case "info": try InfoCommand.run(context, out: &out)
    case "log": try LogCommand.run(context, out: &out)
    case "show": try ShowCommand.run(context, out: &out)
    case "diff": try DiffCommand.run(context, out: &out)
    case "tree": try TreeCommand.run(context, out: &out)
    case "effects": try EffectsCommand.run(context, out: &out)
    case "replay": try ReplayCommand.run(context, out: &out, err: &err)
    case "compare":
      try CompareCommand.run(context, other: context.arguments.positionals[1], out: &out)
    case "follow": try FollowCommand.run(context, out: &out)
    case "export": try ExportCommand.run(context, out: &out)
    case "testgen": try TestgenCommand.run(context, out: &out)
    default:
      throw .usage("unknown command '\(context.arguments.command)'", where: "inspector")
    }
  }
}

extension Inspector {
  /// The inspector of this process: the real terminal, Ctrl-C handled, traces read from files.
  public init(environment: [String: String]) {
    self.init(
      terminal: SystemTerminal(environment: environment), interruption: .onSIGINT(),
      liveLocation: LiveDirectory.location(environment: environment),
      open: { path throws(InspectorError) in try TraceFileSource(path: path) })
  }
}
