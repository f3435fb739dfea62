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

  package init(terminal: any Terminal, interruption: Interruption, open: @escaping Opener) {
    self.terminal = terminal
    self.interruption = interruption
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
        let source = try open(parsed.positionals[0])
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
    case "info": try InfoCommand.run(context, out: &out)
    case "log": try LogCommand.run(context, out: &out)
    case "show": try ShowCommand.run(context, out: &out)
    case "diff": try DiffCommand.run(context, out: &out)
    case "tree": try TreeCommand.run(context, out: &out)
    case "effects": try EffectsCommand.run(context, out: &out)
    case "replay": try ReplayCommand.run(context, out: &out, err: &err)
    case "follow": try FollowCommand.run(context, out: &out)
    case "export": try ExportCommand.run(context, out: &out)
    default:
      throw .usage("unknown command '\(context.arguments.command)'", where: "inspector")
    }
  }
}

/// A text stream that can push what it holds to its destination (a file descriptor, or nowhere
/// for a string).
public protocol FlushingOutput: TextOutputStream {
  mutating func flush()
}

extension String: FlushingOutput {
  public mutating func flush() {}
}

/// Everything a command needs: its arguments, the trace, and how to write.
struct CommandContext {
  var arguments: ParsedArguments
  var source: any TraceSource
  var terminal: any Terminal
  var style: Style
  var interruption: Interruption

  var command: String { arguments.command }

  /// Where a message about the trace points: the file, and the step when there is one.
  func location(step: Int? = nil) -> String {
    step.map { "\(source.path), step \($0)" } ?? source.path
  }

  /// The step number argument at `index`, checked against the trace's range.
  func step(
    _ text: String, named name: String, in summary: TraceSummary, lowest: Int = 0
  ) throws(InspectorError) -> Int {
    let step = try ParsedArguments.integer(text, for: name, in: command)
    try checkStep(step, in: summary, lowest: lowest)
    return step
  }

  func checkStep(_ step: Int, in summary: TraceSummary, lowest: Int = 0) throws(InspectorError) {
    guard step >= lowest, step <= summary.stepCount else {
      if lowest > summary.stepCount {
        throw .input(
          "step \(step) out of range: the trace has no step after step \(summary.stepCount)",
          where: source.path)
      }
      throw .input(
        "step \(step) out of range \(lowest)...\(summary.stepCount)", where: source.path)
    }
  }
}

extension Inspector {
  /// The inspector of this process: the real terminal, Ctrl-C handled, traces read from files.
  public init(environment: [String: String]) {
    self.init(
      terminal: SystemTerminal(environment: environment), interruption: .onSIGINT(),
      open: { path throws(InspectorError) in try TraceFileSource(path: path) })
  }
}
