/// 64 bytes of nothing: stored between fields that different threads write, so that each group
/// is on cache lines of its own (a class's stored properties are laid out in declaration order).
///
/// ```swift
/// let head = Atomic<Int>(0)      // the consumer's
/// private let pad = CacheLinePad()
/// let tail = Atomic<Int>(0)      // the producer's: 64 bytes or more after `head`
/// ```
struct CacheLinePad {
  private let bytes: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
