import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes away.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let path = directory.path("t.rewind")  // /tmp/rewind-test-…/t.rewind
/// ```
public final class TemporaryDirectory: @unchecked Sendable {
  /// The directory's absolute path. Immutable after `init`, hence `@unchecked Sendable`.
  public let url: URL

  public init(prefix: String = "rewind-test") throws {
    let base = FileManager.default.temporaryDirectory
    var random = SystemRandomNumberGenerator()
    let name = "\(prefix)-\(getpid())-\(String(random.next(), radix: 36))"
    url = base.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of `name` inside the directory.
  public func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }
}
