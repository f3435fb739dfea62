import Foundation
import Locking
import TraceKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A named thread that can be joined: a stage of the recording's background writer. Whoever
/// starts it joins it, so no writer outlives the recording that owns it (the recording's first
/// stage is joined once it finished the trace: see `RecordingSession.joinWriterThread`). The
/// thread has its name when `init` returns (until it names itself, a new thread has its
/// creator's name), and runs below the app's threads (nice `WriterThread.nice`, 10, on Linux).
///
/// ```swift
/// let thread = try WriterThread(name: "rewind-writer") { writer.run() }
/// thread.join()   // returns once `run()` has returned and the thread is gone
/// ```
final class WriterThread: @unchecked Sendable {
  /// Why a thread could not be started.
  typealias StartError = NamedThread.StartError

  /// The nice value of the recorder's threads on Linux. The app's threads (nice 0) weigh
  /// about ten times as much: on a shared core the writer waits while the app runs, and its
  /// queue absorbs the delay. At nice 5 (a third of the app's weight) the writer's stages
  /// made the recorder's wall time per send of `send.overhead.app` 1.5 to 2 times what it is
  /// at nice 10 on a loaded 2-core machine; nice 19 did no better for the app and leaves the
  /// writer a seventh of that weight when the app's own threads keep the cores busy.
  static let nice: Int32 = 10

  private let lock = Lock(JoinState.running)
  private let thread: pthread_t

  private enum JoinState {
    case running
    case joined
  }

  init(name: String, body: @escaping @Sendable () -> Void) throws(StartError) {
    let started = DispatchSemaphore(value: 0)
    thread = try NamedThread.start(name: name) {
      #if canImport(Glibc)
        // Below the app's threads: when the cores are contended, the app's main thread
        // goes first and the recorder's work waits (its queue absorbs it). On Linux the
        // nice value is the calling thread's (`who` 0), not the whole process's.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, WriterThread.nice)
      #endif
      started.signal()
      body()
    }
    // The thread is named and lowered before `init` returns.
    started.wait()
  }

  /// Waits until the thread's body returned and the thread ended, from any thread and any
  /// number of times: the first call joins it, and a call made while that join is under way
  /// waits for it (the lock is held across `pthread_join`; the thread itself never takes it),
  /// so every call returns only once the thread is gone.
  func join() {
    lock.withLock { state in
      guard case .running = state else { return }
      pthread_join(thread, nil)
      state = .joined
    }
  }

  /// Whether `join` joined the thread (tests: a finished recording leaves none unjoined).
  var isJoined: Bool {
    lock.withLock { state in
      if case .joined = state { true } else { false }
    }
  }
}
