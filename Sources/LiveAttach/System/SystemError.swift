#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call that failed: what was attempted, on what, and the C library's reason.
///
/// ```swift
/// SystemError(operation: "connect", path: "/run/user/0/rewind/12.sock", code: ECONNREFUSED)
///   .description
/// // "connect /run/user/0/rewind/12.sock: Connection refused"
/// ```
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
  package var operation: String
  package var path: String?
  /// The `errno` value.
  package var code: Int32

  package init(operation: String, path: String? = nil, code: Int32) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  /// The error of the call that just failed (`errno`).
  static func last(_ operation: String, path: String? = nil) -> SystemError {
    SystemError(operation: operation, path: path, code: errno)
  }

  /// The C library's text for the code.
  package var reason: String {
    String(cString: strerror(code))
  }

  package var description: String {
    operation + (path.map { " " + $0 } ?? "") + ": " + reason
  }

  /// Whether the call failed because nobody listens at the path (a stale socket).
  package var isRefused: Bool { code == ECONNREFUSED }
  /// Whether the path does not exist.
  package var isMissing: Bool { code == ENOENT }
  /// Whether the caller may not reach the path.
  package var isDenied: Bool { code == EACCES || code == EPERM }
}
