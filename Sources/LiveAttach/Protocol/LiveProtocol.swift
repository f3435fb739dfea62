/// The constants of the live-attach protocol (docs/live-protocol.md): its version and the
/// size limits of its frames.
///
/// ```swift
/// LiveProtocol.version        // 1
/// LiveProtocol.requestLimit   // 1_048_576: no client frame may be larger
/// ```
package enum LiveProtocol {
  /// The protocol version; a client's `hello` names the one it speaks.
  package static let version = 1
  /// The largest frame a client may send (bytes of JSON after the length).
  package static let requestLimit = 1 << 20
  /// The largest frame an app sends: a keyframe holds a whole state.
  package static let messageLimit = 256 << 20
  /// Bytes of the length that starts every frame (big-endian).
  package static let headerBytes = 4
}
