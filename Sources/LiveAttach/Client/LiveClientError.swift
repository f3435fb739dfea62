/// Why an inspector could not do what it asked of a live app.
///
/// ```swift
/// LiveClientError.refused(code: "notJumped", message: "the store has not jumped …")
///   .description   // "the app refused: the store has not jumped …"
/// ```
package enum LiveClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The socket could not be reached.
  case unreachable(SystemError)
  /// The app closed the connection.
  case closed
  /// No answer within the time allowed.
  case timeout(seconds: Int)
  /// What the app sent breaks the protocol.
  case protocolError(LiveProtocolError)
  /// The app answered with an error.
  case refused(code: String, message: String)

  package var description: String {
    switch self {
    case .unreachable(let error): error.description
    case .closed: "the app closed the connection"
    case .timeout(let seconds): "the app did not answer within \(seconds) s"
    case .protocolError(let error): "the app sent something unexpected: \(error)"
    case .refused(_, let message): "the app refused: \(message)"
    }
  }

  /// Whether the app took the request and said no (exit status 1), as opposed to not being
  /// reached or understood (2).
  package var isRefusal: Bool {
    if case .refused(let code, _) = self {
      // Refusals of the connection itself are a failure to reach the app.
      return !["refused", "version", "hello", "busy"].contains(code)
    }
    return false
  }
}
