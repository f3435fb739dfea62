#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered text stream on a file descriptor (stdout or stderr): writes are collected and
/// sent in large pieces, and `flush()` sends them at once (follow flushes after every batch).
///
/// ```swift
/// var out = StandardStream.output
/// out.write("hello\n")
/// out.flush()
/// ```
public struct StandardStream: FlushingOutput {
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  public static var output: StandardStream { StandardStream(descriptor: STDOUT_FILENO) }
  public static var error: StandardStream { StandardStream(descriptor: STDERR_FILENO) }

  init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  public mutating func write(_ string: String) {
    buffer.append(contentsOf: string.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Sends everything buffered; a closed pipe (`inspector log | head`) drops the rest quietly.
  public mutating func flush() {
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { bytes in
        Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        break
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
