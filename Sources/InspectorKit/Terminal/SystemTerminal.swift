#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's real terminal: `isatty` on stdout and stderr, the width from `COLUMNS` or the
/// `TIOCGWINSZ` ioctl, colour only when stdout is a terminal and `NO_COLOR` is unset.
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

  public init(environment: [String: String]) {
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    stderrIsTerminal = isatty(STDERR_FILENO) == 1
    // NO_COLOR: any value, even empty, turns colour off (https://no-color.org).
    colour = stdoutIsTerminal && environment["NO_COLOR"] == nil
    if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
      width = max(20, columns)
      lineWidth = width
    } else if stdoutIsTerminal, let columns = Self.windowColumns(), columns > 0 {
      width = max(20, columns)
      lineWidth = width
    } else {
      width = Self.defaultWidth
      // Piped into a script or `grep` (like `git log`): a cut line would lose what it matches.
      lineWidth = .max
    }
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
