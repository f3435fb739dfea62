import TraceKit

/// Why a `Recorder` refused its configuration: what is wrong and in which setting. A recorder
/// is never made from a configuration it cannot honour (a redaction path that does not parse
/// would record the value in the clear).
///
/// ```swift
/// do {
///   _ = try Recorder(path: "t.rewind", configuration: .init(redactedStatePaths: ["passwrd["]))
/// } catch {
///   print(error)
///   // Recorder configuration: redactedStatePaths[0] is not a state path: invalid path
///   // "passwrd[" at column 9: expected '"', a digit or 'id:' after '['
/// }
/// ```
public struct RecorderConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The setting, with the position in a list (`redactedStatePaths[0]`).
  public var setting: String
  /// What is wrong with it.
  public var problem: String

  public init(setting: String, problem: String) {
    self.setting = setting
    self.problem = problem
  }

  public var description: String { "Recorder configuration: \(setting) \(problem)" }
}
