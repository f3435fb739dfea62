import Dispatch
import Synchronization

/// The bounded hand-off between the main actor (many cheap appends) and the background writer
/// (takes everything at once). The bound holds for every element: steps, effect starts and
/// endings alike.
///
/// A `Mutex` guards one array; semaphores are signalled only when the other side said it is
/// waiting. The writer is woken only once a batch has gathered (`wakeThreshold`) or when the
/// queue is closed; otherwise it wakes on its own timer. Waking it per element cost a futex
/// system call per `send` (over 1 µs), as a fast writer waits on an empty queue most of the time.
///
/// ```swift
/// let queue = CaptureQueue<Int>(capacity: 2)
/// _ = queue.append(1, whenFull: .block)
/// queue.close(with: 0)
/// queue.take(timeout: .milliseconds(50))  // [1, 0]: the closing element comes last
/// ```
@usableFromInline
final class CaptureQueue<Element: Sendable>: Sendable {
  /// What `append` does when the queue holds `capacity` elements.
  @usableFromInline
  enum WhenFull: Sendable {
    /// Waits until the writer takes what is queued.
    case block
    /// Returns `false` without queueing.
    case drop
  }

  @usableFromInline
  struct State: ~Copyable {
    @usableFromInline var elements: [Element] = []
    @usableFromInline var consumerWaiting = false
    @usableFromInline var producersWaiting = 0
    /// An emptied buffer the writer gave back, reused so that appends neither allocate nor
    /// touch fresh pages (memory freed on the writer thread is not reused by the main one).
    @usableFromInline var spare: [Element] = []
    /// The element that closes the queue: taken after every other, once.
    @usableFromInline var closing: Element?
    @usableFromInline var isClosed = false
    /// The most elements ever queued at once (the bound's witness in tests).
    @usableFromInline var highWater = 0

    @usableFromInline init() {}
  }

  @usableFromInline let capacity: Int
  @usableFromInline let wakeThreshold: Int
  @usableFromInline let state = Mutex(State())
  @usableFromInline let elementsAvailable = DispatchSemaphore(value: 0)
  @usableFromInline let spaceAvailable = DispatchSemaphore(value: 0)

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    wakeThreshold = max(1, min(self.capacity / 2, 1024))
  }

  /// Queues `element`; returns whether it was queued (`.drop` refuses when full; a closed
  /// queue refuses everything).
  @inlinable
  @discardableResult
  func append(_ element: consuming Element, whenFull policy: WhenFull) -> Bool {
    var pending: Element? = element
    while true {
      let (queued, wakeConsumer, mustWait) = state.withLock {
        state -> (Bool, Bool, Bool) in
        if state.isClosed { return (false, false, false) }
        if state.elements.count >= capacity {
          switch policy {
          case .drop: return (false, false, false)
          case .block:
            state.producersWaiting += 1
            let wake = state.consumerWaiting
            state.consumerWaiting = false
            return (false, wake, true)
          }
        }
        if let next = pending.take() {
          state.elements.append(next)
          state.highWater = max(state.highWater, state.elements.count)
        }
        guard state.consumerWaiting, state.elements.count >= wakeThreshold else {
          return (true, false, false)
        }
        state.consumerWaiting = false
        return (true, true, false)
      }
      if wakeConsumer { elementsAvailable.signal() }
      if !mustWait { return queued }
      spaceAvailable.wait()
    }
  }

  /// Closes the queue: nothing more is queued, and `last` is taken after what is queued. Never
  /// waits; returns false when the queue was already closed.
  @discardableResult
  func close(with last: consuming Element) -> Bool {
    var pending: Element? = last
    let (closed, wakeConsumer) = state.withLock { state -> (Bool, Bool) in
      guard !state.isClosed else { return (false, false) }
      state.isClosed = true
      state.closing = pending.take()
      let wake = state.consumerWaiting
      state.consumerWaiting = false
      return (true, wake)
    }
    if wakeConsumer { elementsAvailable.signal() }
    return closed
  }

  /// Everything queued, waiting up to `timeout` for the first element (empty on timeout).
  func take(timeout: Duration) -> [Element] {
    if let taken = takeNow(registerWait: true) { return taken }
    let nanos = timeout.components.seconds * 1_000_000_000
      + timeout.components.attoseconds / 1_000_000_000
    _ = elementsAvailable.wait(timeout: .now() + .nanoseconds(Int(nanos)))
    return takeNow(registerWait: false) ?? []
  }

  private func takeNow(registerWait: Bool) -> [Element]? {
    let (taken, waiters) = state.withLock { state -> ([Element]?, Int) in
      state.consumerWaiting = false
      if state.elements.isEmpty, state.closing == nil {
        if registerWait { state.consumerWaiting = true }
        return (nil, 0)
      }
      var taken: [Element] = []
      swap(&taken, &state.spare)
      swap(&taken, &state.elements)
      if let closing = state.closing.take() { taken.append(closing) }
      let waiters = state.producersWaiting
      state.producersWaiting = 0
      return (taken, waiters)
    }
    for _ in 0..<waiters { spaceAvailable.signal() }
    return taken
  }

  /// Gives an emptied buffer back for reuse.
  func recycle(_ buffer: consuming [Element]) {
    var buffer = buffer
    buffer.removeAll(keepingCapacity: true)
    state.withLock { state in
      if state.spare.capacity < buffer.capacity { swap(&state.spare, &buffer) }
    }
  }

  var count: Int { state.withLock { $0.elements.count } }

  /// The most elements ever queued at once.
  var highWater: Int { state.withLock { $0.highWater } }
}
