import CMemoryHints
import Dispatch
import Locking
import Synchronization

/// The bounded hand-off between the main actor (many cheap appends) and the background writer
/// (takes everything at once): a ring of `capacity` slots allocated once, written by one
/// producer (the main actor, which reports every fact of a store) and read by one consumer
/// (the writer thread). The bound holds for every element: steps, effect starts and endings.
///
/// An append moves the element into its slot and publishes it with one atomic store: no lock,
/// no allocation, no other copy (`reserve` and `publish` let the producer build the element in
/// its slot). A slot holds the element itself, or, with a `CaptureSlotLayout` of the queue's
/// own, the element's parts at offsets the layout defines (the recording's events: see
/// `SessionSlot`), which `take` puts back together. Semaphores are signalled only when the other side said it is waiting. The
/// writer is woken only once a batch has gathered (`wakeThreshold`) or when the queue is
/// closed; otherwise it wakes on its own timer. Waking it per element cost a futex
/// system call per `send` (over 1 µs), as a fast writer waits on an empty queue most of the
/// time.
///
/// ```swift
/// let queue = CaptureQueue<Int>(capacity: 2)
/// _ = queue.append(1, whenFull: .block)
/// queue.close(with: 0)
/// queue.take(timeout: .milliseconds(50))  // [1, 0]: the closing element comes last
/// ```
@usableFromInline
final class CaptureQueue<Element: Sendable>: @unchecked Sendable {
  /// What `append` does when the queue holds `capacity` elements.
  @usableFromInline
  enum WhenFull: Sendable {
    /// Waits until the writer takes what is queued.
    case block
    /// Returns `false` without queueing.
    case drop
  }

  // The fields are grouped by the thread that writes them, each group on its own cache lines
  // (the pads, declaration order being the layout): a line written by the writer thread and
  // read by the main actor on every append moved between the cores once a step.

  // Read by both, written once.
  @usableFromInline let capacity: Int
  @usableFromInline let wakeThreshold: Int
  /// The slots, `slotStride` bytes apart; `head..<tail` (modulo `capacity`) hold elements.
  @usableFromInline let slots: UnsafeMutableRawPointer
  @usableFromInline let slotStride: Int
  /// How many cache lines `prefetchAhead` asks for: one per 64 bytes of a slot, from its start.
  @usableFromInline let prefetchLines: Int
  /// How an element is kept in a slot and taken out of it.
  let layout: CaptureSlotLayout<Element>
  @usableFromInline let isClosed = Atomic<Bool>(false)
  private let padBeforeConsumer = CacheLinePad()

  // Written by the consumer.
  /// Elements taken so far: written by the consumer only.
  @usableFromInline let head = Atomic<Int>(0)
  @usableFromInline let consumerWaiting = Atomic<Bool>(false)
  /// Set by a blocked producer, cleared by the consumer on every take.
  @usableFromInline let producerWaiting = Atomic<Bool>(false)
  private let padBeforeProducer = CacheLinePad()

  // Written by the producer.
  /// Elements queued so far: written by the producer only.
  @usableFromInline let tail = Atomic<Int>(0)
  /// The slot of the next append, `tail % capacity` without a division (producer only).
  @exclusivity(unchecked) @usableFromInline var nextSlot = 0
  /// `head` as the producer last read it (producer only): the consumer only moves it forward,
  /// so the free room it shows is never more than there is; `head` itself is read only when
  /// this shows the queue full, near the wake threshold or above the high water.
  @exclusivity(unchecked) @usableFromInline var knownHead = 0
  /// The most elements ever queued at once (the bound's witness in tests).
  @usableFromInline let highWaterMark = Atomic<Int>(0)
  /// `highWaterMark`'s value, for the producer's checks (producer only).
  @exclusivity(unchecked) @usableFromInline var knownHighWater = 0
  /// The head above which the queue last crossed the wake threshold (producer only): that
  /// append was published with the full fence, and those after it above the same head are not.
  @exclusivity(unchecked) @usableFromInline var crossedAbove = -1
  private let padAfterProducer = CacheLinePad()
  /// The element that closes the queue: taken after every other, once.
  private let closing = Lock<Element?>(nil)
  /// An emptied buffer the writer gave back, reused for the next batch it takes.
  private let spare = Lock<[Element]>([])
  @usableFromInline let elementsAvailable = DispatchSemaphore(value: 0)
  @usableFromInline let spaceAvailable = DispatchSemaphore(value: 0)

  /// The most bytes of slots `init` touches (see `touchPages`).
  static var touchedBytesLimit: Int { 4 << 20 }

  /// A queue whose slots hold the elements themselves.
  convenience init(capacity: Int) {
    self.init(capacity: capacity, layout: .inPlace)
  }

  init(capacity: Int, layout: CaptureSlotLayout<Element>) {
    self.capacity = max(1, capacity)
    wakeThreshold = max(1, min(self.capacity / 2, 1024))
    self.layout = layout
    slotStride = layout.stride
    prefetchLines = (layout.stride + 63) / 64
    slots = UnsafeMutableRawPointer.allocate(
      byteCount: self.capacity * layout.stride, alignment: layout.alignment)
    if layout.isInPlace { slots.bindMemory(to: Element.self, capacity: self.capacity) }
    Self.touchPages(
      of: slots, bytes: min(self.capacity * layout.stride, Self.touchedBytesLimit))
  }

  /// Writes a byte to every page of the slots' first `bytes`, so that the kernel maps them now
  /// (the queue is made with its store) rather than during the first lap of appends: the
  /// slots of an app's events are 300 bytes, and a page fault every 13 appends cost the main
  /// actor about 0.14 faults (over 100 ns) a recorded `send`. Bounded, so that a very large
  /// `queueCapacity` does not make every page resident at once.
  private static func touchPages(of start: UnsafeMutableRawPointer, bytes: Int) {
    let page = 4096
    var offset = 0
    while offset < bytes {
      start.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
      offset += page
    }
  }

  deinit {
    // Elements queued after the writer took the closing one are never taken.
    let first = head.load(ordering: .acquiring)
    let last = tail.load(ordering: .acquiring)
    for index in first..<last { layout.destroy(slots + index % capacity * slotStride) }
    slots.deallocate()
  }

  /// Queues `element`; returns whether it was queued (`.drop` refuses when full; a closed
  /// queue refuses everything). The main actor alone appends. For a queue whose slots hold
  /// the elements themselves (`init(capacity:)`).
  @inlinable
  @discardableResult
  func append(_ element: consuming Element, whenFull policy: WhenFull) -> Bool {
    guard let slot = reserve(whenFull: policy) else { return false }
    slot.initialize(to: element)
    publish()
    return true
  }

  /// The free slot the next element goes to (`.drop` gives nil when full; a closed queue gives
  /// nil always), in a queue whose slots hold the elements themselves (`init(capacity:)`).
  /// The producer initializes it, then calls `publish()`, before anything else touches the
  /// queue.
  ///
  /// ```swift
  /// if let slot = queue.reserve(whenFull: .drop) {
  ///   slot.initialize(to: 1)
  ///   queue.publish()
  /// }
  /// ```
  @inlinable
  func reserve(whenFull policy: WhenFull) -> UnsafeMutablePointer<Element>? {
    reserveSlot(whenFull: policy)?.assumingMemoryBound(to: Element.self)
  }

  /// The bytes of the free slot the next element goes to (as `reserve`), for the queue's
  /// layout to write the element's parts into.
  ///
  /// Inlined into the producer: an open queue with room by the remembered head (nearly every
  /// append) returns the slot at once; the rest (the consumer's head read again, waiting) is
  /// a call of its own, so the common path saves no registers for it.
  @inlinable @inline(__always)
  func reserveSlot(whenFull policy: WhenFull) -> UnsafeMutableRawPointer? {
    if !isClosed.load(ordering: .acquiring),
      tail.load(ordering: .relaxed) &- knownHead < capacity
    {
      return slots + nextSlot &* slotStride
    }
    return reserveSlotSlowly(whenFull: policy)
  }

  /// `reserveSlot` once the remembered head shows the queue full (or the queue is closed).
  @inlinable @inline(never)
  func reserveSlotSlowly(whenFull policy: WhenFull) -> UnsafeMutableRawPointer? {
    let position = tail.load(ordering: .relaxed)
    while true {
      if isClosed.load(ordering: .acquiring) { return nil }
      if hasRoom(at: position) { break }
      switch policy {
      case .drop: return nil
      case .block:
        producerWaiting.store(true, ordering: .sequentiallyConsistent)
        // The writer may have taken everything between the check and the flag.
        knownHead = head.load(ordering: .sequentiallyConsistent)
        if position &- knownHead < capacity { continue }
        wakeConsumer()
        spaceAvailable.wait()
      }
    }
    return slots + nextSlot &* slotStride
  }

  /// Hands the element initialized in the reserved slot to the consumer.
  ///
  /// Inlined into the producer: below the wake threshold as the producer last saw it (nearly
  /// every append), publishing is the slot's release store and the prefetch, and above the
  /// high water the consumer's head is read again to keep the high water exact; crossing the
  /// threshold is a call of its own (`publishCrossing`).
  ///
  /// The high water is checked here, not in the call: a writer that lags makes every append a
  /// new high water, and the call cost about 12 instructions more each time.
  @inlinable @inline(__always)
  func publish() {
    let position = tail.load(ordering: .relaxed)
    nextSlot = nextSlot + 1 == capacity ? 0 : nextSlot + 1
    prefetchAhead()
    // At most what is queued: the consumer's head is read only when it could matter.
    let queued = position &+ 1 &- knownHead
    if queued < wakeThreshold {
      // The consumer is not woken below the threshold (its timer wakes it); see
      // `publishCrossing` for why a release store publishes the slot.
      tail.store(position &+ 1, ordering: .releasing)
      // Read again, the head shows no more queued (the consumer only moves it forward), so
      // still below the threshold.
      if queued > knownHighWater { noteHighWater(after: position) }
      return
    }
    publishCrossing(position)
  }

  /// Reads the consumer's head again and raises the high water if the append after
  /// `position` makes more queued than ever (producer only).
  @inlinable @inline(__always)
  func noteHighWater(after position: Int) {
    knownHead = head.load(ordering: .relaxed)
    let queued = position &+ 1 &- knownHead
    if queued > knownHighWater {
      knownHighWater = queued
      highWaterMark.store(queued, ordering: .relaxed)
    }
  }

  /// `publish` when what the remembered head shows queued reaches the wake threshold: the
  /// consumer's head is read, and the crossing is fenced.
  @inlinable @inline(never)
  func publishCrossing(_ position: Int) {
    knownHead = head.load(ordering: .relaxed)
    let queued = position &+ 1 &- knownHead
    if queued >= wakeThreshold, knownHead != crossedAbove {
      // The crossing, ordered with the consumer's flag: it sets the flag, then looks at the
      // tail. Either it sees this element (and takes it, so it is not waiting with the batch
      // queued), or this sees the flag and wakes it.
      crossedAbove = knownHead
      tail.store(position &+ 1, ordering: .sequentiallyConsistent)
      if consumerWaiting.load(ordering: .sequentiallyConsistent) { wakeConsumer() }
    } else {
      // Below the threshold the consumer is not woken (its timer wakes it). Above it, past
      // the crossing, the consumer has seen the crossing's element or been woken for it, and
      // waits again only once it took everything it saw: the head moved, and the next
      // crossing above the new head is fenced. A release store publishes the slot without
      // the full fence (an `xchg` that waits for the slot's pending stores).
      tail.store(position &+ 1, ordering: .releasing)
    }
    if queued > knownHighWater {
      knownHighWater = queued
      highWaterMark.store(queued, ordering: .relaxed)
    }
  }

  /// How many slots ahead of the next append `publish` asks for the cache lines of one. A
  /// sample of appends runs through a ring of a megabyte or more that no cache holds, and each
  /// slot written cold stalled the producer on every line of it; asked for a few appends
  /// early, the lines are there when the slot is written.
  @usableFromInline static var prefetchDistance: Int { 4 }

  /// Asks for the lines of the slot `prefetchDistance` appends ahead (producer only): one
  /// prefetch every 64 bytes from the slot's start, unrolled up to 8 lines (a loop over the
  /// lines cost 4 instructions a line).
  @inlinable @inline(__always)
  func prefetchAhead() {
    var ahead = nextSlot &+ Self.prefetchDistance
    if ahead >= capacity { ahead %= capacity }
    let slot = slots + ahead &* slotStride
    switch prefetchLines {
    case 8:
      rewind_prefetch_for_write(slot + 448, 1)
      fallthrough
    case 7:
      rewind_prefetch_for_write(slot + 384, 1)
      fallthrough
    case 6:
      rewind_prefetch_for_write(slot + 320, 1)
      fallthrough
    case 5:
      rewind_prefetch_for_write(slot + 256, 1)
      fallthrough
    case 4:
      rewind_prefetch_for_write(slot + 192, 1)
      fallthrough
    case 3:
      rewind_prefetch_for_write(slot + 128, 1)
      fallthrough
    case 2:
      rewind_prefetch_for_write(slot + 64, 1)
      fallthrough
    case 1:
      rewind_prefetch_for_write(slot, 1)
    default:
      rewind_prefetch_for_write(slot, slotStride)
    }
  }

  @usableFromInline
  func wakeConsumer() {
    if consumerWaiting.exchange(false, ordering: .sequentiallyConsistent) {
      elementsAvailable.signal()
    }
  }

  /// Closes the queue: nothing more is queued, and `last` is taken after what is queued. Never
  /// waits; returns false when the queue was already closed.
  @discardableResult
  func close(with last: consuming Element) -> Bool {
    var pending: Element? = last
    let closed = closing.withLock { closing -> Bool in
      guard !isClosed.load(ordering: .relaxed) else { return false }
      closing = pending.take()
      isClosed.store(true, ordering: .sequentiallyConsistent)
      return true
    }
    if closed { wakeConsumer() }
    return closed
  }

  /// Everything queued, waiting up to `timeout` for the first element (empty on timeout).
  /// The writer alone takes.
  func take(timeout: Duration) -> [Element] {
    if let taken = takeNow() { return taken }
    consumerWaiting.store(true, ordering: .sequentiallyConsistent)
    // An element or the closing one may have come between the check and the flag.
    if let taken = takeNow() {
      consumerWaiting.store(false, ordering: .relaxed)
      return taken
    }
    let nanos = timeout.components.seconds * 1_000_000_000
      + timeout.components.attoseconds / 1_000_000_000
    _ = elementsAvailable.wait(timeout: .now() + .nanoseconds(Int(nanos)))
    consumerWaiting.store(false, ordering: .relaxed)
    return takeNow() ?? []
  }

  /// What is queued now, the closing element last once everything before it is taken; nil
  /// when there is nothing.
  private func takeNow() -> [Element]? {
    let first = head.load(ordering: .relaxed)
    let last = tail.load(ordering: .sequentiallyConsistent)
    var closingElement: Element?
    if first == last, isClosed.load(ordering: .sequentiallyConsistent) {
      // Closed with nothing queued (an append that saw the queue open may still have been
      // publishing: look at the tail again once the closing element is taken).
      closingElement = closing.withLock { $0.take() }
      if closingElement == nil, tail.load(ordering: .sequentiallyConsistent) == first {
        return nil
      }
    }
    let end = tail.load(ordering: .sequentiallyConsistent)
    if first == end, closingElement == nil { return nil }
    var taken = spare.withLock { spare -> [Element] in
      var buffer: [Element] = []
      swap(&buffer, &spare)
      return buffer
    }
    taken.reserveCapacity(end - first + 1)
    for index in first..<end { layout.take(slots + index % capacity * slotStride, &taken) }
    head.store(end, ordering: .sequentiallyConsistent)
    if producerWaiting.exchange(false, ordering: .sequentiallyConsistent) {
      spaceAvailable.signal()
    }
    if let closingElement { taken.append(closingElement) }
    return taken
  }

  /// Gives an emptied buffer back for reuse.
  func recycle(_ buffer: consuming [Element]) {
    var buffer = buffer
    buffer.removeAll(keepingCapacity: true)
    spare.withLock { spare in
      if spare.capacity < buffer.capacity { swap(&spare, &buffer) }
    }
  }

  var count: Int { tail.load(ordering: .acquiring) &- head.load(ordering: .acquiring) }

  /// Whether an append would find a free slot now. Only the producer appends, so for it the
  /// answer holds until it appends (the consumer only frees slots).
  @inlinable
  var hasRoom: Bool { hasRoom(at: tail.load(ordering: .relaxed)) }

  /// Whether the slot of the `position`th append is free (producer only): the remembered
  /// head first, the consumer's `head` only when that shows the queue full.
  @inlinable
  func hasRoom(at position: Int) -> Bool {
    if position &- knownHead < capacity { return true }
    knownHead = head.load(ordering: .acquiring)
    return position &- knownHead < capacity
  }

  /// The most elements ever queued at once.
  var highWater: Int { highWaterMark.load(ordering: .relaxed) }
}
