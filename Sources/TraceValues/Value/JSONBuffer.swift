/// Where `JSONWriter` writes: a byte array, or a `JSONBuffer`.
protocol JSONOutput: ~Copyable {
  mutating func appendByte(_ byte: UInt8)
  mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
  /// Makes room for `count` more bytes.
  mutating func reserveMore(_ count: Int)
}

extension Array: JSONOutput where Element == UInt8 {
  @inline(__always)
  mutating func appendByte(_ byte: UInt8) { append(byte) }

  @inline(__always)
  mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

  mutating func reserveMore(_ count: Int) { reserveCapacity(self.count + count) }
}

/// Bytes written by the JSON writer, for a writer that writes many values in turn and copies
/// each one out (`TraceValue.writeJSON(into:)`): appending a byte is a store and a count (an
/// array's `append` also calls its uniqueness check), and appending a run is one `memcpy`.
///
/// ```swift
/// var buffer = JSONBuffer()
/// TraceValue.array([.int(1), .string("a")]).writeJSON(into: &buffer)
/// print(String(decoding: buffer.bytes, as: UTF8.self))  // [1,"a"]
/// buffer.removeAll()
/// ```
package struct JSONBuffer: ~Copyable, JSONOutput {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes written since the last `removeAll()`.
  package private(set) var count = 0
  /// Whether `base` is this buffer's to free: not while it writes into an array's memory (see
  /// `array(capacity:room:_:)`).
  private var owned = true

  package init(capacity: Int = 256) {
    self.capacity = Swift.max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  /// A buffer that writes into `capacity` bytes at `base`, which it does not own: when it needs
  /// more, it moves to memory of its own.
  private init(writingInto base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
    owned = false
  }

  deinit { if owned { base.deallocate() } }

  /// The bytes `write` writes, written straight into a new array of `capacity` bytes with room
  /// for `extra` bytes more (a keyframe's newline, which the trace writer appends in place).
  /// When they do not fit they are copied out at their size, as `array(room:)` copies them.
  /// A keyframe's JSON written in a buffer of its own and copied out cost a copy of its bytes
  /// (800 KB for 10,000 todos: 0.85 M instructions under callgrind).
  package static func array(
    capacity: Int, room extra: Int = 0, _ write: (inout JSONBuffer) -> Void
  ) -> [UInt8] {
    let capacity = Swift.max(capacity, 16)
    var outgrown: [UInt8]?
    let array = [UInt8](unsafeUninitializedCapacity: capacity + extra) { target, initialized in
      var buffer = JSONBuffer(writingInto: target.baseAddress!, capacity: capacity)
      write(&buffer)
      if buffer.owned {
        outgrown = buffer.array(room: extra)
        initialized = 0
      } else {
        initialized = buffer.count
      }
    }
    return outgrown ?? array
  }

  /// The bytes written since the last `removeAll()`, valid until the next write.
  package var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base, count: count)
  }

  /// The bytes written, in an array of their own with room for `extra` bytes more (a
  /// keyframe's newline, which the trace writer appends in place).
  package func array(room extra: Int = 0) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count + extra) { target, initialized in
      if count > 0 { Self.copy(count, from: base, to: target.baseAddress!) }
      initialized = count
    }
  }

  /// Forgets the bytes written, keeping the memory.
  package mutating func removeAll() { count = 0 }

  @inline(__always)
  package mutating func appendByte(_ byte: UInt8) {
    if count == capacity { grow(toHold: count + 1) }
    base[count] = byte
    count += 1
  }

  @inline(__always)
  package mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
    Self.copy(bytes.count, from: source, to: base + count)
    count += bytes.count
  }

  /// Appends `count` bytes that `write` writes at the address it is given (room made for them
  /// first, once): a writer in another module that appends many byte runs in a row (a keyframe's
  /// cached elements) copies them itself, where a call of `appendBytes`, and of `appendByte` for
  /// each comma, not inlined across the module, cost about 70 instructions a run. `write` must
  /// write exactly `count` bytes.
  package mutating func append(
    count written: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void
  ) {
    guard written > 0 else { return }
    if capacity - count < written { grow(toHold: count + written) }
    write(base + count)
    count += written
  }

  /// Bytes copied by `memcpy`: `initialize(from:count:)` copied them in a loop of its own, about
  /// 0.6 instructions a byte (a keyframe's 800 KB, copied as its buffer grew, cost 1 M).
  @inline(__always)
  private static func copy(
    _ count: Int, from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>
  ) {
    UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: count)
  }

  mutating func reserveMore(_ count: Int) {
    if capacity - self.count < count { grow(toHold: self.count + count) }
  }

  @inline(never)
  private mutating func grow(toHold needed: Int) {
    let newCapacity = Swift.max(needed, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    Self.copy(count, from: base, to: newBase)
    if owned { base.deallocate() }
    base = newBase
    capacity = newCapacity
    owned = true
  }
}
