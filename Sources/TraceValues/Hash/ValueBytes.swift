/// Which bytes of a value of one type hold the value, for comparing two of them by their
/// bits (`HashMemo`): a struct's padding does not, and a copy of the value does not keep it.
///
/// ```swift
/// struct Fields: ValueBytes {  // the bytes of a `(Bool, Int)` struct, not its padding
///   var ranges: [Range<Int>]? { [0..<1, 8..<16] }
/// }
/// let hasher = StableHashEncoder(replacingClassInstances: true) { _ in Fields() }
/// ```
@usableFromInline
package protocol ValueBytes {
  /// The byte ranges that hold the value, in order and apart; nil: all of the type's bytes.
  var ranges: [Range<Int>]? { get }
}

/// A type's `ValueBytes` as `HashMemo` compares them: the ranges as (offset, count) pairs in
/// memory of its own, which the memo reads at every comparison without an existential call,
/// a retain or a `memcmp` call a range (those made a comparison about 190 instructions; this
/// one is a loop over words).
///
/// ```swift
/// let layout = ValueLayout(size: 16, ranges: [0..<1, 8..<16])
/// layout.same(old, new)  // bytes 0 and 8 to 15 equal
/// ```
final class ValueLayout {
  /// Offset and count of each range, one after the other.
  let spans: UnsafeMutableBufferPointer<Int>

  /// `ranges` of a type of `size` bytes (nil: all of them).
  init(size: Int, ranges: [Range<Int>]?) {
    let ranges = ranges ?? [0..<size]
    spans = .allocate(capacity: 2 * ranges.count)
    for (index, range) in ranges.enumerated() {
      spans.initializeElement(at: 2 * index, to: range.lowerBound)
      spans.initializeElement(at: 2 * index + 1, to: range.count)
    }
  }

  deinit {
    spans.deallocate()
  }

  /// Whether the values at `old` and `new` have the same bytes in the ranges.
  @inline(__always)
  func same(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> Bool {
    Self.same(old, new, spans: UnsafeBufferPointer(spans))
  }

  /// `same` with the spans read out already.
  static func same(
    _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, spans: UnsafeBufferPointer<Int>
  ) -> Bool {
    var index = 0
    while index < spans.count {
      let start = spans[index]
      let end = start + spans[index + 1]
      var offset = start
      while offset + 8 <= end {
        if old.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          != new.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
          return false
        }
        offset += 8
      }
      while offset < end {
        if old.load(fromByteOffset: offset, as: UInt8.self)
          != new.load(fromByteOffset: offset, as: UInt8.self)
        {
          return false
        }
        offset += 1
      }
      index += 2
    }
    return true
  }
}
