import LiveAttach
import TraceKit

/// `inspector attach APP`: prints the app's steps like `follow`: what it holds, then each
/// step as it happens, until the app ends (or Ctrl-C).
///
/// ```text
///      7  00:01.204  user             counter.plus  → count
/// (live)
///      8  00:01.951  inspector        jump to step 3  → count
/// (the app finished after step 8)
/// ```
enum AttachCommand {
  static func run(_ context: LiveContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let app = try context.app()
    let client = try context.connect(app)
    defer { client.close() }
    context.interruption.arm()
    do {
      try client.watch(live: true)
    } catch {
      throw context.failure(error, app)
    }
    let format = LineFormat(
      width: context.terminal.lineWidth, style: context.style, lastStep: app.welcome.lastStep)
    let style = context.style
    var last = 0
    while !context.interruption.isRequested {
      let message: LiveMessage?
      do {
        // Whatever is waiting is printed at once; the output is flushed before waiting.
        message =
          try client.receive(timeout: .zero)
          ?? { () throws(LiveClientError) -> LiveMessage? in
            out.flush()
            return try client.receive(timeout: .milliseconds(200))
          }()
      } catch {
        out.write(style.dim("(the app is gone after step \(last))") + "\n")
        return
      }
      guard let message else { continue }
      switch message {
      case .start(let start):
        let row = StepRow(
          step: 0, monotonicNanos: 0, wallTime: start.wallTime, origin: .initial,
          actionPath: "", changedPaths: [], stateHash: start.initialState.stableHash,
          reducerNanos: 0)
        out.write(format.render(row, action: .null) + "\n")
      case .keyframe(let record, _), .step(let record):
        out.write(format.render(row(record), action: record.action) + "\n")
        last = record.step
      case .gap(_, let dropped, let reason):
        let why =
          switch reason {
          case .recorder: "the recorder dropped them"
          case .history: "the app no longer holds them"
          case .client: "this terminal read too slowly"
          }
        out.write(style.dim("(\(NumberText.counted(dropped, "step")) missed: \(why))") + "\n")
      case .historyEnd:
        out.write(style.dim("(live)") + "\n")
      case .status(let status):
        out.write(style.dim("(the app is \(status.text))") + "\n")
      case .end(let reason):
        let ended = reason == "finished" ? "finished" : "stopped recording: \(reason)"
        out.write(style.dim("(the app \(ended) after step \(last))") + "\n")
        return
      default:
        break
      }
    }
  }

  static func row(_ record: StepRecord) -> StepRow {
    StepRow(
      step: record.step, monotonicNanos: record.monotonicNanos, wallTime: record.wallTime,
      origin: record.origin, actionPath: record.actionPath, changedPaths: record.changedPaths,
      stateHash: record.stateHash, reducerNanos: record.reducerNanos)
  }
}
