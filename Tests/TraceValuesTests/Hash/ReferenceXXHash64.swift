/// A plain byte-at-a-time XXH64 (seed 0), the reference that `StableHasher` streams the same
/// result as. Yann Collet's xxHash64: fixed, so the same on every machine and in every process.
///
/// ```swift
/// print(String(ReferenceXXHash64.hash(Array("abc".utf8)), radix: 16))  // 44bc2cf5ad770999
/// ```
enum ReferenceXXHash64 {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
    bytes.withUnsafeBytes { hash(UnsafeRawBufferPointer($0), seed: seed) }
  }

  static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let count = bytes.count
    var offset = 0
    var h: UInt64
    if count >= 32 {
      var v1 = seed &+ prime1 &+ prime2
      var v2 = seed &+ prime2
      var v3 = seed
      var v4 = seed &- prime1
      while offset + 32 <= count {
        v1 = round(v1, read64(bytes, offset))
        v2 = round(v2, read64(bytes, offset + 8))
        v3 = round(v3, read64(bytes, offset + 16))
        v4 = round(v4, read64(bytes, offset + 24))
        offset += 32
      }
      h = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
      h = merge(h, v1)
      h = merge(h, v2)
      h = merge(h, v3)
      h = merge(h, v4)
    } else {
      h = seed &+ prime5
    }
    h &+= UInt64(count)
    while offset + 8 <= count {
      h ^= round(0, read64(bytes, offset))
      h = rotate(h, 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= count {
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      h ^= UInt64(UInt32(littleEndian: word)) &* prime1
      h = rotate(h, 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < count {
      h ^= UInt64(bytes[offset]) &* prime5
      h = rotate(h, 11) &* prime1
      offset += 1
    }
    h ^= h >> 33
    h &*= prime2
    h ^= h >> 29
    h &*= prime3
    h ^= h >> 32
    return h
  }

  @inline(__always)
  private static func read64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  @inline(__always)
  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always)
  private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
    (accumulator ^ round(0, value)) &* prime1 &+ prime4
  }
}
