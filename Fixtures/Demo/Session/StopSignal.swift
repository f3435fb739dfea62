import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns SIGINT and SIGTERM into a flag a long-running session polls, so that it can close
/// its trace and exit cleanly instead of dying mid-write.
///
/// ```swift
/// let stop = StopSignal.install()
/// while !stop.isRequested { … }   // Ctrl-C ends the loop
/// ```
///
/// The flag is the process's: install it once.
struct StopSignal: Sendable {
  /// Whether a stop signal arrived.
  var isRequested: Bool {
    stopRequested.load(ordering: .acquiring)
  }

  /// Catches SIGINT and SIGTERM from now on.
  ///
  /// `sigaction` swaps the default action for the handler in one step, so a signal is either
  /// the default's (before) or the handler's (after), never lost. Ignoring the signals and
  /// then arming a dispatch signal source left a window, until libdispatch's manager thread
  /// had registered the source, in which a signal was ignored: a Ctrl-C right after start
  /// did nothing and the session ran on.
  static func install() -> StopSignal {
    // Made before a handler can run: a handler must not be the first to touch a lazy global.
    _ = stopRequested.load(ordering: .relaxed)
    for signalNumber in [SIGINT, SIGTERM] {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in
          stopRequested.store(true, ordering: .releasing)
        }
      #else
        action.__sigaction_u.__sa_handler = { _ in
          stopRequested.store(true, ordering: .releasing)
        }
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(signalNumber, &action, nil)
    }
    return StopSignal()
  }
}

/// Set by the signal handler, which can reach a global but capture nothing. One lock-free
/// store: async-signal-safe.
private let stopRequested = Atomic<Bool>(false)
