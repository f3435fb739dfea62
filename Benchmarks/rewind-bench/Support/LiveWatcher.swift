import Foundation
import LiveAttach
import Locking

/// An inspector on a thread of its own, watching a live app: it decodes every message and
/// notes when each step arrived, or (stalled) connects, asks to watch and then reads nothing.
///
/// ```swift
/// let watcher = try LiveWatcher(socketPath: path, reading: true)
/// // … the app records 100,000 steps …
/// watcher.waitForStep(100_000)   // monotonic ns when it arrived
/// ```
final class LiveWatcher: @unchecked Sendable {
  private struct Progress {
    var lastStep = 0
    var steps = 0
    var missed = 0
    var arrivals: [Int: UInt64] = [:]
    var stop = false
  }

  private let progress = Lock(Progress())
  private let done = DispatchSemaphore(value: 0)
  private let client: LiveClient

  init(socketPath: String, reading: Bool) throws {
    client = try LiveClient(socketPath: socketPath)
    try client.watch(live: true)
    guard reading else { return }
    let thread = Thread { [self] in
      read()
      done.signal()
    }
    thread.name = "bench-watcher"
    thread.start()
  }

  /// Asks for the arrival time of `step` to be noted.
  func note(_ step: Int) {
    progress.withLock { $0.arrivals[step] = 0 }
  }

  /// Waits until `step` arrived (or a minute passed); the monotonic time it arrived.
  func waitForStep(_ step: Int) -> UInt64? {
    let deadline = Stopwatch.now() + 60_000_000_000
    while Stopwatch.now() < deadline {
      if let time = progress.withLock({ $0.arrivals[step] }), time > 0 { return time }
      usleep(200)
    }
    return nil
  }

  /// Steps received and steps the app said this client missed.
  var counts: (steps: Int, missed: Int) {
    progress.withLock { ($0.steps, $0.missed) }
  }

  /// Reads whatever the stalled connection holds now (to count its gaps), then closes.
  func drainAndClose() -> Int {
    var missed = 0
    while let message = try? client.receive(timeout: .milliseconds(200)) {
      if case .gap(_, let dropped, .client) = message { missed += dropped }
    }
    client.close()
    return missed
  }

  func stop() {
    progress.withLock { $0.stop = true }
    done.wait()
    client.close()
  }

  private func read() {
    while !progress.withLock({ $0.stop }) {
      guard let message = try? client.receive(timeout: .milliseconds(100)) else { continue }
      let now = Stopwatch.now()
      progress.withLock { progress in
        switch message {
        case .step(let record), .keyframe(let record, _):
          progress.steps += 1
          progress.lastStep = record.step
          if progress.arrivals[record.step] == 0 { progress.arrivals[record.step] = now }
        case .gap(_, let dropped, _):
          progress.missed += dropped
        default:
          break
        }
      }
    }
  }
}
