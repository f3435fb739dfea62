/// What the recorder stores in a trace's `extra` metadata so that replay can apply the same
/// redaction.
///
/// ```swift
/// RecorderMetadata.entries(config)  // ["rewind.redactedState": "account.password"]
/// ```
enum RecorderMetadata {
  static let redactedStateKey = "rewind.redactedState"
  static let redactedActionKey = "rewind.redactedAction"
  /// Written when the recording finishes: the redaction paths that matched no value in any
  /// recorded state or action (`state passwrd, action login.pass`), so `inspector info`
  /// shows them.
  static let unmatchedRedactionKey = "rewind.redactionUnmatched"

  static func entries(_ configuration: Recorder.Configuration) -> [String: String] {
    var entries: [String: String] = [:]
    if !configuration.redactedStatePaths.isEmpty {
      entries[redactedStateKey] = configuration.redactedStatePaths.joined(separator: "\n")
    }
    if !configuration.redactedActionPaths.isEmpty {
      entries[redactedActionKey] = configuration.redactedActionPaths.joined(separator: "\n")
    }
    return entries
  }

  static func paths(_ extra: [String: String], key: String) -> [String] {
    guard let text = extra[key], !text.isEmpty else { return [] }
    return text.split(separator: "\n").map(String.init)
  }
}
