/// The version of Rewind these modules belong to, which `inspector --version` and
/// `rewind-demo --version` print with the trace format versions they read.
///
/// ```swift
/// print(RewindVersion.current)  // 0.1.0
/// ```
public enum RewindVersion {
  public static let current = "0.1.0"

  /// One line for `--version`: the program, this version and the formats its reader reads.
  ///
  /// ```swift
  /// print(RewindVersion.line(program: "inspector"))
  /// // inspector 0.1.0 (Rewind), reads trace format versions 1, 2, 3
  /// ```
  public static func line(program: String) -> String {
    let versions = TraceReader.readableFormatVersions.map(String.init)
    let formats =
      versions.count == 1
      ? "version " + versions[0] : "versions " + versions.joined(separator: ", ")
    return "\(program) \(current) (Rewind), reads trace format \(formats)"
  }
}
