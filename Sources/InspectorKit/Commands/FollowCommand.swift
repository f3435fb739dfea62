import Foundation
import TraceKit

/// `inspector follow TRACE [--from-start]`: attaches to a trace another process is writing and
/// prints each new step within a fraction of a second (it polls every 50 ms), until the writer
/// closes the trace, the writer is gone (its process ended without closing it), or the user
/// presses Ctrl-C.
///
/// ```text
///      7  00:01.204  user             counter.incrementTapped  → counter.count
/// (trace closed after step 7)
/// ```
enum FollowCommand {
  static let pollInterval: UInt32 = 50_000
  /// Seconds to wait for the trace when `--wait` is not given.
  static let defaultWait = 5

  /// Opens the trace, waiting up to `--wait SECONDS` for it to appear and become readable: a
  /// follower started before the writer's first commit finds no file, an empty file, or a
  /// file without its tables (or its log) yet. Those are retried until the deadline, then
  /// reported with what was last wrong; a trace that is there but damaged is reported at once,
  /// since waiting cannot mend it. Nil when Ctrl-C came first.
  ///
  /// ```text
  /// inspector: no readable trace after waiting 5 s (--wait): no such file (live.rewind)
  /// ```
  static func waitForTrace(
    _ arguments: ParsedArguments, open: Inspector.Opener, interruption: Interruption
  ) throws(InspectorError) -> (any TraceSource)? {
    let seconds = try arguments.integer("--wait") ?? defaultWait
    let path = arguments.positionals[0]
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    interruption.arm()
    while true {
      do throws(InspectorError) {
        let source = try open(path)
        // A file whose tables exist but whose first commit is not visible yet has no summary.
        _ = try source.summary()
        return source
      } catch {
        guard error.kind == .input, isNotThereYet(error.cause) else { throw error }
        if clock.now >= deadline {
          throw .input(
            "no readable trace after waiting \(seconds) s (--wait): \(error.what)",
            where: error.location)
        }
      }
      usleep(pollInterval)
      if interruption.isRequested { return nil }
    }
  }

  /// What a trace looks like between its writer creating the file and its first commit
  /// (SQLite writes the header before the log exists, and the tables with the first commit).
  static func isNotThereYet(_ cause: TraceError.Kind?) -> Bool {
    switch cause {
    case .fileNotFound?, .notSQLite?, .notATrace?, .missingTable?, .missingLog?, .truncated?:
      true
    default:
      false
    }
  }

  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    context.interruption.arm()
    let source = context.source
    var summary = try source.summary()
    var next = context.arguments.flag("--from-start") ? 0 : summary.stepCount + 1
    let line = LineFormat(
      width: context.terminal.lineWidth, style: context.style, lastStep: summary.stepCount)
    while true {
      if next <= summary.stepCount {
        try source.forEachStepContent(from: next, to: summary.stepCount) {
          entry, content throws(InspectorError) in
          let action = entry.step == 0 ? .null : try content.action()
          out.write(line.render(entry, action: action) + "\n")
          next = entry.step + 1
          return !context.interruption.isRequested
        }
        out.flush()
      }
      if context.interruption.isRequested { return }
      if summary.isComplete, next > summary.stepCount {
        out.write(context.style.dim("(trace closed after step \(summary.stepCount))") + "\n")
        return
      }
      if summary.isWriterGone, next > summary.stepCount {
        // Its last commit is all there will ever be.
        out.write(
          context.style.dim(
            "(writer gone after step \(summary.stepCount); the trace was not closed)") + "\n")
        return
      }
      usleep(pollInterval)
      if context.interruption.isRequested { return }
      try source.refresh()
      summary = try source.summary()
    }
  }
}
