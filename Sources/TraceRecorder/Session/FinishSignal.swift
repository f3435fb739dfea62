import Dispatch

/// Lets `finish()` wait for the writer to close the file.
@usableFromInline
final class FinishSignal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  func signal() { semaphore.signal() }
  func wait() { semaphore.wait() }
}
