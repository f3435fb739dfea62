import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a flag a long-running session polls, so that it can close
/// its trace and exit cleanly instead of dying mid-write.
///
/// ```swift
/// let stop = StopSignal.install()
/// while !stop.isRequested { … }   // Ctrl-C ends the loop
/// ```
// Unchecked: `sources` is written once in `init` and only kept alive afterwards; the flag is
// atomic.
final class StopSignal: @unchecked Sendable {
  private let requested = Atomic<Bool>(false)
  private var sources: [any DispatchSourceSignal] = []

  private init() {}

  /// Whether a stop signal arrived.
  var isRequested: Bool {
    requested.load(ordering: .acquiring)
  }

  /// Catches SIGINT and SIGTERM from now on.
  static func install() -> StopSignal {
    let stop = StopSignal()
    for signalNumber in [SIGINT, SIGTERM] {
      // The default action would kill the process before the trace is closed.
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(
        signal: signalNumber, queue: .global(qos: .userInitiated))
      source.setEventHandler { [stop] in
        stop.requested.store(true, ordering: .releasing)
      }
      source.resume()
      stop.sources.append(source)
    }
    return stop
  }
}
