#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's real terminal: `isatty` on stdout and stderr, the width from `COLUMNS` or the
/// `TIOCGWINSZ` ioctl (within `widths`), colour only when stdout is a terminal, `NO_COLOR` is
/// unset or empty and `TERM` is not `dumb`.
///
/// ```swift
/// let terminal = SystemTerminal(environment: ["COLUMNS": "100"])
/// terminal.width  // 100
/// ```
public struct SystemTerminal: Terminal {
  public let width: Int
  public let lineWidth: Int
  public let colour: Bool
  public let stderrIsTerminal: Bool

  /// Piped output has no width of its own; 80 columns keeps it readable in a file or a pager.
  static let defaultWidth = 80

  /// The widths the inspector lays out for. `COLUMNS` is untrusted like any input: a width
  /// beyond these is taken as the nearest one, so a timeline never allocates a row of a
  /// billion cells and no arithmetic on the width overflows.
  static let widths = 20...1_024

  public init(environment: [String: String]) {
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    stderrIsTerminal = isatty(STDERR_FILENO) == 1
    colour = stdoutIsTerminal && Self.allowsColour(environment)
    if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
      width = Self.clamped(columns)
      lineWidth = width
    } else if stdoutIsTerminal, let columns = Self.windowColumns(), columns > 0 {
      width = Self.clamped(columns)
      lineWidth = width
    } else {
      width = Self.defaultWidth
      // Piped into a script or `grep` (like `git log`): a cut line would lose what it matches.
      lineWidth = .max
    }
  }

  /// No colour when `NO_COLOR` is set to a non-empty value (https://no-color.org: an empty
  /// value does not count) or when `TERM` is `dumb` (a terminal without escape sequences).
  static func allowsColour(_ environment: [String: String]) -> Bool {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  static func clamped(_ columns: Int) -> Int {
    min(max(columns, widths.lowerBound), widths.upperBound)
  }

  private static func windowColumns() -> Int? {
    var size = winsize()
    #if canImport(Glibc)
      let request = UInt(TIOCGWINSZ)
    #else
      let request = TIOCGWINSZ
    #endif
    guard ioctl(STDOUT_FILENO, request, &size) == 0 else { return nil }
    return Int(size.ws_col)
  }
}
