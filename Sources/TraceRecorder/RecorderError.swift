/// Why a recording stopped early.
///
/// ```swift
/// print(error)
/// // Recording to /tmp/app.rewind stopped: /tmp/app.rewind: database or disk is full. The
/// // trace holds steps 0…1204 (its last commit); the app keeps running unrecorded.
/// ```
public struct RecorderError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The trace file.
  public var path: String
  /// The last step the trace file holds (committed before the failure); nil when it holds
  /// nothing (it could not be created, or it was removed).
  public var lastCommittedStep: Int?
  /// What went wrong, in one line.
  public var message: String

  public init(path: String, lastCommittedStep: Int?, message: String) {
    self.path = path
    self.lastCommittedStep = lastCommittedStep
    self.message = message
  }

  public var description: String {
    let kept = lastCommittedStep.map { "The trace holds steps 0…\($0) (its last commit); the" }
    return "Recording to \(path) stopped: \(message). \(kept ?? "The") app keeps running "
      + "unrecorded."
  }
}
