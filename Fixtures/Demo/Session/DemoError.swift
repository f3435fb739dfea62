import TraceRecorder

/// Why a demo command failed, as one line that says what and where.
///
/// ```swift
/// print(DemoError.outputExists("/tmp/a.rewind"))
/// // /tmp/a.rewind exists: remove it, choose another --out, or replace it with --force
/// ```
enum DemoError: Error, CustomStringConvertible {
  /// `--out` names a file that exists (a recorder never overwrites a trace without `--force`).
  case outputExists(String)
  /// `--out` names a file that cannot be created there (why, in words).
  case output(String, reason: String)
  /// The recorder refused its configuration.
  case configuration(RecorderConfigurationError)
  /// The recorder stopped with an error.
  case recording(RecorderError)
  /// The trace cannot be replayed (unreadable, gap, types that no longer fit).
  case replay(ReplayError)
  /// A scripted session's effects did not settle (they wait on something but the clock).
  case stalled(scenario: String, userAction: Int)

  var description: String {
    switch self {
    case let .outputExists(path):
      "\(path) exists: remove it, choose another --out, or replace it with --force"
    case let .output(path, reason):
      "cannot record to \(path): \(reason)"
    case let .configuration(error):
      error.description
    case let .recording(error):
      error.description
    case let .replay(error):
      error.description
    case let .stalled(scenario, userAction):
      "the \(scenario) session stalled after user action \(userAction): its effects neither "
        + "finished nor slept on the session clock within 30 seconds"
    }
  }
}
