import Foundation
import Locking
import Synchronization

/// A fresh directory under the system's temporary directory, removed when the value goes away
/// or, at the latest, when the process exits: XCTest keeps every test case object (and what
/// its properties hold) until the end of the run and then exits without releasing them, so a
/// directory kept in a property would otherwise outlive the test run.
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
    Self.live.withLock { live in
      if !Self.removalAtExitInstalled.exchange(true, ordering: .relaxed) {
        atexit { TemporaryDirectory.removeLive() }
      }
      live.insert(url.path)
    }
  }

  deinit {
    _ = Self.live.withLock { $0.remove(url.path) }
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of `name` inside the directory.
  public func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// The directories not yet removed.
  private static let live = Lock<Set<String>>([])
  private static let removalAtExitInstalled = Atomic<Bool>(false)

  private static func removeLive() {
    let paths = live.withLock { live in
      defer { live.removeAll() }
      return live
    }
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
  }
}
