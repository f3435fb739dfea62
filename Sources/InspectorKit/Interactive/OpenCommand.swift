import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inspector open TRACE [--step N]`: the interactive view. It needs a terminal (stdin and
/// stdout, `TERM` set and not `dumb`); it takes the alternate screen and gives the terminal
/// back as it was on `q`, Ctrl-C, SIGTERM or any error.
///
/// The loop: draw when something changed; wait up to 100 ms for a key; between keys count the
/// timeline's buckets in slices of a few milliseconds, and follow a trace that is still
/// being written.
enum OpenCommand {
  /// The one line for a process without a terminal.
  static let needsTerminal =
    "open needs an interactive terminal; without one, use the batch commands: "
    + "info, log, show, diff, tree, effects, replay, follow, export"

  /// Whether this process can take the terminal: stdin and stdout are one, and `TERM` names a
  /// terminal that can place the cursor (`dumb` cannot).
  static func hasTerminal(environment: [String: String]) -> Bool {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return false }
    guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
    return true
  }

  static func run(_ context: CommandContext) throws(InspectorError) {
    guard hasTerminal(environment: ProcessInfo.processInfo.environment) else {
      throw .usage(needsTerminal, where: "open")
    }
    let step = try context.arguments.integer("--step")
    let session = try OpenSession(
      source: context.source, step: step, colour: context.terminal.colour)
    let terminal = try CursesTerminal(colour: session.colour)
    TerminationSignals.install()
    defer {
      terminal.end()
      TerminationSignals.restore()
    }
    let size = terminal.size
    session.resize(width: size.width, height: size.height)
    try loop(session, terminal)
    if TerminationSignals.isReceived {
      // The terminal is given back; now end as the signal asked, so the parent sees it.
      let number = TerminationSignals.signalNumber
      terminal.end()
      TerminationSignals.restore()
      raise(number)
    }
  }

  private static func loop(_ session: OpenSession, _ terminal: CursesTerminal)
    throws(InspectorError)
  {
    let clock = ContinuousClock()
    var dirty = true
    var lastDraw = clock.now
    while !session.model.quits, !TerminationSignals.isReceived {
      if dirty {
        terminal.draw(try session.screen())
        dirty = false
        lastDraw = clock.now
      }
      let busy = session.hasPendingWork
      if let key = terminal.readKey(timeoutMilliseconds: busy ? 0 : 100) {
        try session.handle(key)
        dirty = true
        continue
      }
      if busy {
        let more = try session.work(until: clock.now.advanced(by: .milliseconds(8)))
        // Progress on the timeline a few times a second, and once when done.
        if !more || clock.now - lastDraw > .milliseconds(150) { dirty = true }
      } else if try session.tick() {
        dirty = true
      }
    }
  }
}
