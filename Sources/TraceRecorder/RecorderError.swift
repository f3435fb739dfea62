/// Why a recording stopped early.
public struct RecorderError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The trace file.
  public var path: String
  /// The step being written when it failed (nil before the first step).
  public var step: Int?
  /// What went wrong, in one line.
  public var message: String

  public var description: String {
    let at = step.map { " at step \($0)" } ?? ""
    return "Recording to \(path) stopped\(at): \(message). The app keeps running unrecorded."
  }
}
