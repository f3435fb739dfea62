import TraceKit
import TraceValues

/// Everything that can go wrong while the inspector runs, as one line a person can act on:
/// what is wrong, then where (`inspector: <what> (<where>)`).
///
/// ```swift
/// let error = InspectorError.usage("unknown option '--form'", where: "log")
/// print(error.line)  // inspector: unknown option '--form' (log)
/// ```
public struct InspectorError: Error, Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    /// Bad command line: unknown command or option, missing argument or value.
    case usage
    /// Input that cannot be read: missing file, not a trace, corrupted, out of range.
    case input
    /// A check failed (a replay mismatch): the input was read, the answer is "no".
    case checkFailed
    /// The user interrupted the command (Ctrl-C during `follow`): not a failure.
    case interrupted
  }

  public var kind: Kind
  public var what: String
  public var location: String
  /// The trace error behind an unreadable-input error, for a command that judges some damage
  /// as a failed check (`replay` and rows deleted from the index).
  package var cause: TraceError.Kind?

  public init(_ kind: Kind, _ what: String, where location: String) {
    self.kind = kind
    self.what = what
    self.location = location
  }

  public static func usage(_ what: String, where location: String) -> InspectorError {
    InspectorError(.usage, what, where: location)
  }

  public static func input(_ what: String, where location: String) -> InspectorError {
    InspectorError(.input, what, where: location)
  }

  /// The process exit status: 1 for a failed check, 0 for an interruption, 2 for the rest.
  public var exitCode: Int32 {
    switch kind {
    case .usage, .input: 2
    case .checkFailed: 1
    case .interrupted: 0
    }
  }

  /// The single diagnostic line, with every control character escaped (`where` may hold a
  /// path or a recorded string from the trace).
  public var line: String {
    "inspector: " + message
  }

  /// The line without its `inspector: ` prefix: what a JSON document that ends early holds.
  var message: String {
    EscapedText.plain(location.isEmpty ? what : "\(what) (\(location))")
  }
}
