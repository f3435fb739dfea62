#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// Whether the user asked a long-running command (`follow`) to stop. The process installs a
/// SIGINT handler that only sets a flag, so the command finishes its line, flushes and exits 0
/// instead of dying mid-write.
///
/// ```swift
/// let interruption = Interruption.onSIGINT()
/// while !interruption.isRequested { /* poll */ }
/// ```
public struct Interruption: Sendable {
  private let check: @Sendable () -> Bool

  package init(_ check: @escaping @Sendable () -> Bool) {
    self.check = check
  }

  public var isRequested: Bool { check() }

  /// Never interrupted.
  public static let never = Interruption { false }

  /// Installs the SIGINT handler (once per process) and reports whether it fired.
  public static func onSIGINT() -> Interruption {
    signal(SIGINT) { _ in sigintReceived.store(true, ordering: .relaxed) }
    return Interruption { sigintReceived.load(ordering: .relaxed) }
  }
}

/// Set by the SIGINT handler: an atomic store is async-signal-safe.
private let sigintReceived = Atomic<Bool>(false)
