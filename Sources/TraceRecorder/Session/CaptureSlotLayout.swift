/// How a `CaptureQueue` keeps an element in a slot: the slot's size, and how the consumer takes
/// the element out of it (or the queue's `deinit` destroys it). The producer writes a slot
/// through the queue's `reserveSlot`, as its layout says.
///
/// ```swift
/// let queue = CaptureQueue<Int>(capacity: 8, layout: .inPlace)  // = CaptureQueue(capacity: 8)
/// ```
@usableFromInline
struct CaptureSlotLayout<Element>: Sendable {
  /// Bytes from a slot to the next.
  let stride: Int
  let alignment: Int
  /// Whether a slot holds the element itself (`reserve` and `append` are for such a queue).
  let isInPlace: Bool
  /// Moves the element out of an initialized slot to the end of the batch.
  let take: @Sendable (UnsafeMutableRawPointer, inout [Element]) -> Void
  /// Destroys the element in an initialized slot.
  let destroy: @Sendable (UnsafeMutableRawPointer) -> Void

  @usableFromInline
  init(
    stride: Int, alignment: Int,
    take: @escaping @Sendable (UnsafeMutableRawPointer, inout [Element]) -> Void,
    destroy: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
  ) {
    self.init(stride: stride, alignment: alignment, isInPlace: false, take: take, destroy: destroy)
  }

  private init(
    stride: Int, alignment: Int, isInPlace: Bool,
    take: @escaping @Sendable (UnsafeMutableRawPointer, inout [Element]) -> Void,
    destroy: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
  ) {
    self.stride = max(1, stride)
    self.alignment = alignment
    self.isInPlace = isInPlace
    self.take = take
    self.destroy = destroy
  }

  /// Each slot holds the element itself.
  static var inPlace: Self {
    Self(
      stride: MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment,
      isInPlace: true,
      take: { slot, batch in batch.append(slot.assumingMemoryBound(to: Element.self).move()) },
      destroy: { slot in slot.assumingMemoryBound(to: Element.self).deinitialize(count: 1) })
  }
}
