/// Streaming xxHash64 (seed 0) over a sequence of little-endian 64-bit words. Feeding words
/// `w0, w1, …` gives exactly `XXH64` of their bytes, without writing the bytes anywhere: the
/// four lanes advance every 32 bytes and up to three words wait in registers.
struct StableHasher: StableWordSink {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The four lanes before the first stripe (the initial values below).
  @inline(__always)
  static var seedLanes: (UInt64, UInt64, UInt64, UInt64) {
    (prime1 &+ prime2, prime2, 0, 0 &- prime1)
  }

  private var v1: UInt64
  private var v2: UInt64
  private var v3: UInt64
  private var v4: UInt64
  private var w0: UInt64 = 0
  private var w1: UInt64 = 0
  private var w2: UInt64 = 0
  private var waiting = 0
  private var stripes = 0

  init() {
    (v1, v2, v3, v4) = Self.seedLanes
  }

  /// A hasher fed `stripes` stripes (four words each) whose lanes came to `lanes`: each lane
  /// is `round` over its word of each stripe in turn, from `seedLanes`, so a caller that
  /// keeps the lanes of words it did not change need not feed those words again
  /// (`MerkleHash.FieldMemo`). Words fed after it follow the stripes.
  init(lanes: (UInt64, UInt64, UInt64, UInt64), stripes: Int) {
    (v1, v2, v3, v4) = lanes
    self.stripes = stripes
  }

  @inline(__always)
  mutating func combine(_ word: UInt64) {
    switch waiting {
    case 0:
      w0 = word
      waiting = 1
    case 1:
      w1 = word
      waiting = 2
    case 2:
      w2 = word
      waiting = 3
    default:
      stripe(w0, w1, w2, word)
      waiting = 0
    }
  }

  /// Four words through the four lanes: one stripe of 32 bytes.
  @inline(__always)
  private mutating func stripe(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
    v1 = Self.round(v1, a)
    v2 = Self.round(v2, b)
    v3 = Self.round(v3, c)
    v4 = Self.round(v4, d)
    stripes += 1
  }

  /// Two words, as `combine(first)` then `combine(second)` feed them, with one look at how
  /// many words wait (a container's head word and hash, which objects and runs write for
  /// every container they hold).
  @inline(__always)
  mutating func combine(_ first: UInt64, _ second: UInt64) {
    switch waiting {
    case 0:
      w0 = first
      w1 = second
      waiting = 2
    case 1:
      w1 = first
      w2 = second
      waiting = 3
    case 2:
      stripe(w0, w1, first, second)
      waiting = 0
    default:
      stripe(w0, w1, w2, first)
      w0 = second
      waiting = 1
    }
  }

  /// Feeds words kept in a buffer (see `StableWordBuffer`), as `combine(_:)` one by one would:
  /// once no word waits, each four go into the lanes at once, without the waiting words'
  /// bookkeeping (an array's run hashes, 157 for 10,000 elements, cost about 20 instructions
  /// a word one by one).
  mutating func combine(_ words: UnsafeBufferPointer<UInt64>) {
    let count = words.count
    var index = 0
    while index < count, waiting != 0 {
      combine(words[index])
      index += 1
    }
    if count - index >= 4 {
      var (a, b, c, d) = (v1, v2, v3, v4)
      var done = 0
      while count - index >= 4 {
        a = Self.round(a, words[index])
        b = Self.round(b, words[index + 1])
        c = Self.round(c, words[index + 2])
        d = Self.round(d, words[index + 3])
        index += 4
        done += 1
      }
      (v1, v2, v3, v4) = (a, b, c, d)
      stripes += done
    }
    while index < count {
      combine(words[index])
      index += 1
    }
  }

  func finalize() -> UInt64 {
    let length = UInt64(stripes * 32 + waiting * 8)
    var h: UInt64
    if stripes > 0 {
      h = Self.rotate(v1, 1) &+ Self.rotate(v2, 7) &+ Self.rotate(v3, 12) &+ Self.rotate(v4, 18)
      h = Self.merge(h, v1)
      h = Self.merge(h, v2)
      h = Self.merge(h, v3)
      h = Self.merge(h, v4)
    } else {
      h = Self.prime5
    }
    h &+= length
    for index in 0..<waiting {
      h ^= Self.round(0, index == 0 ? w0 : index == 1 ? w1 : w2)
      h = Self.rotate(h, 27) &* Self.prime1 &+ Self.prime4
    }
    h ^= h >> 33
    h &*= Self.prime2
    h ^= h >> 29
    h &*= Self.prime3
    h ^= h >> 32
    return h
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  /// One word through a lane.
  @inline(__always)
  static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always)
  private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
    (accumulator ^ round(0, value)) &* prime1 &+ prime4
  }
}
