/// A frame that breaks the protocol: what was wrong, for the `error` message that answers it.
///
/// ```swift
/// LiveProtocolError.malformed("'step' is not an integer").description
/// // "malformed message: 'step' is not an integer"
/// ```
package enum LiveProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The frame's length is over the limit: the connection cannot be read further.
  case frameTooLarge(bytes: Int, limit: Int)
  /// The frame is not a JSON object of a known shape.
  case malformed(String)
  /// A message of a type this side does not know.
  case unknownType(String)

  /// The `code` of the `error` message.
  package var code: String {
    switch self {
    case .frameTooLarge: "frameTooLarge"
    case .malformed: "malformed"
    case .unknownType: "unknownType"
    }
  }

  package var description: String {
    switch self {
    case .frameTooLarge(let bytes, let limit):
      "a frame of \(bytes) bytes is over the limit of \(limit) bytes"
    case .malformed(let reason): "malformed message: \(reason)"
    case .unknownType(let type): "unknown message type '\(type)'"
    }
  }
}
