/// What the inspector needs to know about where its output goes. The real process asks the
/// system (`SystemTerminal`); tests pass a fixed value so they run without a terminal.
///
/// ```swift
/// let terminal = FixedTerminal(width: 60, colour: false)
/// terminal.width  // 60
/// ```
public protocol Terminal: Sendable {
  /// Columns available to a line of stdout (never below 20).
  var width: Int { get }
  /// Columns for output of one line per record (`log`, `follow`): the width on a terminal or
  /// when `COLUMNS` is set, unlimited (`Int.max`) when piped, so a script sees whole lines.
  var lineWidth: Int { get }
  /// Whether stdout may carry colour escape codes (a terminal, `NO_COLOR` unset or empty, and
  /// `TERM` not `dumb`).
  var colour: Bool { get }
  /// Whether stderr is a terminal (progress lines are shown only then).
  var stderrIsTerminal: Bool { get }
}

extension Terminal {
  public var lineWidth: Int { width }
}

/// A terminal with fixed answers: for tests and for piped output.
public struct FixedTerminal: Terminal {
  public var width: Int
  public var colour: Bool
  public var stderrIsTerminal: Bool

  public init(width: Int = 80, colour: Bool = false, stderrIsTerminal: Bool = false) {
    self.width = max(20, width)
    self.colour = colour
    self.stderrIsTerminal = stderrIsTerminal
  }
}
