import TraceKit

extension Recorder.Configuration {
  /// Checks every setting a recording depends on; the first problem is thrown.
  ///
  /// ```swift
  /// try Recorder.Configuration(keyframeInterval: 0).validate()
  /// // Recorder configuration: keyframeInterval is 0; it must be at least 1
  /// ```
  func validate() throws(RecorderConfigurationError) {
    guard keyframeInterval >= 1 else {
      throw RecorderConfigurationError(
        setting: "keyframeInterval", problem: "is \(keyframeInterval); it must be at least 1")
    }
    guard queueCapacity >= 1 else {
      throw RecorderConfigurationError(
        setting: "queueCapacity", problem: "is \(queueCapacity); it must be at least 1")
    }
    guard flushInterval > .zero else {
      throw RecorderConfigurationError(
        setting: "flushInterval", problem: "is \(flushInterval); it must be more than zero")
    }
    if let live {
      guard live.historySteps >= 1 else {
        throw RecorderConfigurationError(
          setting: "live.historySteps", problem: "is \(live.historySteps); it must be at least 1")
      }
      guard live.historyMegabytes >= 1 else {
        throw RecorderConfigurationError(
          setting: "live.historyMegabytes",
          problem: "is \(live.historyMegabytes); it must be at least 1")
      }
    }
    _ = try Redaction(validating: redactedStatePaths, setting: "redactedStatePaths", of: "state")
    _ = try Redaction(
      validating: redactedActionPaths, setting: "redactedActionPaths", of: "action")
  }
}
