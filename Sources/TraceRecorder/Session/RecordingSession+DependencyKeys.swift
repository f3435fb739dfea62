import ComposableCore

extension RecordingSession {
  /// Keeps the store's key log for the writer, which stores the keys in the trace so that a
  /// generated test can name the clients the feature read.
  func dependencyKeysLogged(_ log: DependencyKeyLog) {
    dependencyKeyLog = log
  }
}
