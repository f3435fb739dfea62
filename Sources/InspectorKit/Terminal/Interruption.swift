import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the user asked a long-running command (`follow`) to stop. The process installs a
/// SIGINT handler that only sets a flag, so the command finishes its line, flushes and exits 0
/// instead of dying mid-write.
///
/// ```swift
/// let interruption = Interruption.onSIGINT()
/// interruption.arm()
/// while !interruption.isRequested { /* poll */ }
/// ```
public struct Interruption: Sendable {
  private let install: @Sendable () -> Void
  private let check: @Sendable () -> Bool

  package init(
    install: @escaping @Sendable () -> Void = {}, _ check: @escaping @Sendable () -> Bool
  ) {
    self.install = install
    self.check = check
  }

  /// Starts listening; only the commands that can be stopped cleanly call it, so Ctrl-C
  /// keeps its usual meaning everywhere else.
  public func arm() { install() }

  public var isRequested: Bool { check() }

  /// Never interrupted.
  public static let never = Interruption { false }

  /// Reports whether SIGINT arrived after `arm()` installed the handler.
  public static func onSIGINT() -> Interruption {
    Interruption(
      install: { signal(SIGINT) { _ in sigintReceived.store(true, ordering: .relaxed) } },
      { sigintReceived.load(ordering: .relaxed) })
  }
}

/// Set by the SIGINT handler: an atomic store is async-signal-safe.
private let sigintReceived = Atomic<Bool>(false)
