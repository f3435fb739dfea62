/// Whether a trace is still being written, as the status line of `inspector open` shows it.
///
/// ```swift
/// WriterState.gone.text  // "writer gone"
/// ```
package enum WriterState: Sendable, Equatable {
  /// The writer closed the trace: it will not grow.
  case closed
  /// Not closed, and a process has it open for writing: it may grow.
  case writing
  /// Not closed, and no process has it open: the writer died (or was killed) mid-trace.
  case gone
  /// Not closed, and the source cannot tell whether its writer lives.
  case unknown
  /// A running app, attached to (`inspector open --attach`): its state in a few words.
  case attached(String)

  package var text: String {
    switch self {
    case .closed: "complete"
    case .writing: "live"
    case .gone: "writer gone"
    case .unknown: "not closed"
    case .attached(let text): text
    }
  }
}
