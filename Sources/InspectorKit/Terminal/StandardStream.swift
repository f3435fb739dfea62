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

  /// Sends everything buffered. A closed pipe (`inspector log t.rewind | head`) ends the
  /// process by SIGPIPE, as it does for every Unix filter; any other error drops the rest.
  public mutating func flush() {
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { bytes in
        Self.systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        break
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// `write(2)`, named apart from `TextOutputStream.write(_:)`.
  private static func systemWrite(
    _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int
  ) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }
}
