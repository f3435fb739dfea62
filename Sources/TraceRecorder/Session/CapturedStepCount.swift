import Synchronization

/// The number of the last step a session captured: written on the main actor, read by the
/// live server's thread for `inspector ps`.
///
/// It is an object of its own so that the server never refers to the session. A weak
/// reference to the session would move its reference count into a side table, and every
/// retain and release of the session on the send path would take the slow path: about 130
/// instructions a send with nobody attached (`send.overhead.counter.live`).
///
/// ```swift
/// let count = CapturedStepCount()
/// count.store(12)
/// count.last  // 12
/// ```
final class CapturedStepCount: Sendable {
  private let value = Atomic<Int>(0)

  init() {}

  func store(_ step: Int) {
    value.store(step, ordering: .relaxed)
  }

  var last: Int { value.load(ordering: .relaxed) }
}
