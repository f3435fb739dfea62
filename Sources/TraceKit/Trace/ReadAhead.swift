import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread that reads ahead of its consumer: `produce` runs on a new thread and hands
/// blocks over with `send`, at most `capacity` ahead (memory stays flat), while the
/// consumer takes them in order with `next`. A replay reads a trace's rows, chunks and lines
/// this way while it checks the steps before them, so on two cores the two halves overlap.
///
/// Whatever `produce` reads (a `TraceReader`, a source) belongs to its thread until
/// `finish()` returned.
///
/// ```swift
/// let ahead = ReadAhead<[Int]>(name: "numbers") { ahead in
///   for start in stride(from: 0, to: 9, by: 3) where !ahead.send(Array(start..<start + 3)) {
///     return
///   }
/// }
/// while let block = ahead.next() { print(block) }  // [0, 1, 2], [3, 4, 5], [6, 7, 8]
/// ahead.finish()
/// ```
package final class ReadAhead<Block>: @unchecked Sendable {
  private let capacity: Int
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var blocks: [Block] = []
  private var stopped = false
  private var produced = false

  /// Starts `produce` on a new thread named `name` (at most 15 bytes, the most Linux keeps).
  package init(
    name: String, capacity: Int = 8, produce: @escaping @Sendable (ReadAhead<Block>) -> Void
  ) {
    self.capacity = capacity
    let body: @Sendable () -> Void = { [self] in
      produce(self)
      condition.lock()
      produced = true
      condition.broadcast()
      condition.unlock()
    }
    if let thread = try? NamedThread.start(name: name, body) {
      pthread_detach(thread)
    } else {
      Thread(block: body).start()
    }
  }

  /// Queues a block, waiting while `capacity` blocks are queued; false when the consumer
  /// stopped taking them (`produce` should return).
  package func send(_ block: Block) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while blocks.count >= capacity, !stopped { condition.wait() }
    guard !stopped else { return false }
    blocks.append(block)
    condition.broadcast()
    return true
  }

  /// The next block in order, waiting for it; nil once `produce` returned and every block
  /// it sent was taken.
  package func next() -> Block? {
    condition.lock()
    defer { condition.unlock() }
    while blocks.isEmpty, !produced { condition.wait() }
    guard !blocks.isEmpty else { return nil }
    let block = blocks.removeFirst()
    condition.broadcast()
    return block
  }

  /// Stops the producer (its next `send` returns false) and waits until `produce` returned.
  package func finish() {
    condition.lock()
    stopped = true
    blocks.removeAll()
    condition.broadcast()
    while !produced { condition.wait() }
    condition.unlock()
  }
}
