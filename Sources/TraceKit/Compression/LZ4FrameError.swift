/// Why an LZ4 frame could not be made or read.
///
/// ```swift
/// print(LZ4FrameError.checksumMismatch)  // LZ4 frame content checksum mismatch
/// ```
package enum LZ4FrameError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The frame ends before its end mark (or before its declared content).
  case truncated
  /// The content checksum (or a block checksum) does not match the decompressed bytes.
  case checksumMismatch
  /// The frame declares (or produces) more bytes than the caller allows.
  case tooLarge(size: UInt64, limit: Int)
  /// The frame declares no content size; this format always writes one.
  case missingContentSize
  /// Bytes follow the end of the frame.
  case trailingBytes(count: Int)
  /// Any other malformed frame, with LZ4's own error name.
  case malformed(String)
  /// LZ4 refused to compress (it names why).
  case compressionFailed(String)

  package var description: String {
    switch self {
    case .truncated: "LZ4 frame is truncated"
    case .checksumMismatch: "LZ4 frame content checksum mismatch"
    case .tooLarge(let size, let limit):
      "LZ4 frame content of \(size) bytes exceeds the limit of \(limit) bytes"
    case .missingContentSize: "LZ4 frame does not declare its content size"
    case .trailingBytes(let count): "LZ4 frame is followed by \(count) unexpected bytes"
    case .malformed(let name): "LZ4 frame is malformed (\(name))"
    case .compressionFailed(let name): "LZ4 compression failed (\(name))"
    }
  }
}
