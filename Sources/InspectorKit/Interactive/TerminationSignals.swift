import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT while `inspector open` holds the terminal: the handler
/// only sets a flag (an atomic store is async-signal-safe), and the view's loop, which wakes
/// at least every 100 ms, sees it, gives the terminal back and exits. Dying on the signal
/// instead would leave the terminal in raw mode on the alternate screen.
///
/// ```swift
/// TerminationSignals.install()
/// defer { TerminationSignals.restore() }
/// while !TerminationSignals.received { … }
/// ```
enum TerminationSignals {
  static let numbers = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  static func install() {
    received.store(0, ordering: .relaxed)
    for number in numbers {
      signal(number) { caught in TerminationSignals.received.store(caught, ordering: .relaxed) }
    }
  }

  /// Back to the default actions.
  static func restore() {
    for number in numbers { signal(number, SIG_DFL) }
  }

  /// The signal that arrived, or 0.
  static var signalNumber: Int32 { received.load(ordering: .relaxed) }

  static var isReceived: Bool { signalNumber != 0 }

  fileprivate static let received = Atomic<Int32>(0)
}
