import TraceKit

/// The encodings of the actions a writer met lately, found again by the action's bits: an app
/// sends the same few actions over and over (taps, ticks, rows' toggles), and encoding a
/// nested action through `Codable` costs tens of microseconds.
///
/// Same bits is the same action (see `Equality`: the entry keeps the older value alive, so a
/// buffer it shares cannot have changed); equal actions whose bits differ (padding, another
/// buffer) only miss. An action of at most 64 bytes (most: a case with a few scalars, an id,
/// a short string, nested a few levels deep: a row's action in a list's in an app's, with a
/// 16-byte id and a string, is 33 bytes) is looked up by its bits copied into words; a larger
/// one is compared with the last one only. Bounded: the entries are dropped when `capacity`
/// is reached.
///
/// ```swift
/// var actions = EncodedActions(of: App.Action.self)
/// if let hit = actions.encoding(of: action) { … }  // nil the first time
/// actions.insert(action, value: encoded, path: "counter.plus")
/// ```
///
/// Not generic (only its methods are, over the action's own type), as the types below: the
/// writer's code is not specialized for the app's types, and a generic type here cost a
/// metadata look-up a step.
struct EncodedActions {
  /// The entries, by bits: open addressing with linear probing over at least twice as many
  /// slots as entries (a power of two, doubled as entries come), so a probe ends at a free
  /// slot. A `Dictionary` hashed the bits with `Hasher` (SipHash) at each look-up, about 270
  /// instructions a step with its probe; here a multiply picks the slot. `used[i]` says
  /// whether slot `i` holds an entry; `keys` and `encodings` are read only where it does.
  private var used: [Bool] = []
  private var keys: [ActionBits] = []
  private var encodings: [ActionEncoding] = []
  private var count = 0
  /// The shift that keeps log2(slot count) bits of a 64-bit hash.
  private var shift = 64
  /// The actions of the entries, kept alive so that their bits stay theirs.
  private var actions: [Any] = []
  /// A larger action: the last one (kept alive), its bits and its encoding.
  private var last: (action: Any, bits: [UInt8], encoding: ActionEncoding)?
  private let capacity: Int
  private let fitsInBits: Bool

  init<Action>(of type: Action.Type, capacity: Int = 512) {
    self.capacity = capacity
    fitsInBits = MemoryLayout<Action>.size <= MemoryLayout<ActionBits>.size
    if fitsInBits { makeSlots(log2: 4) }
  }

  /// Empty slots, `1 << log2` of them.
  private mutating func makeSlots(log2: Int) {
    let slots = 1 << log2
    shift = 64 - log2
    used = Array(repeating: false, count: slots)
    keys = Array(repeating: ActionBits(), count: slots)
    encodings = Array(repeating: ActionEncoding(value: .null, path: ""), count: slots)
    count = 0
  }

  /// `mutating` though it changes nothing: called on a writer's stored property, a
  /// non-mutating call copied the whole struct first (a retain and a release of each of its
  /// parts, about 190 instructions a step on the composed app).
  mutating func encoding<Action>(of action: Action) -> ActionEncoding? {
    guard fitsInBits else {
      guard let last else { return nil }
      let same = withUnsafeBytes(of: action) { bytes in
        last.bits.withUnsafeBytes { $0.elementsEqual(bytes) }
      }
      return same ? last.encoding : nil
    }
    let key = Self.bits(of: action)
    var slot = self.slot(of: key)
    while used[slot] {
      if keys[slot] == key { return encodings[slot] }
      slot = (slot + 1) & (used.count - 1)
    }
    return nil
  }

  /// Where the probe for `key` starts (Fibonacci hashing of its words mixed: see
  /// `ActionBits.mixed`).
  private func slot(of key: ActionBits) -> Int {
    Int(truncatingIfNeeded: (key.mixed &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
  }

  mutating func insert<Action>(_ action: Action, value: TraceValue, path: String) {
    let encoding = ActionEncoding(value: value, path: path)
    guard fitsInBits else {
      last = (action, withUnsafeBytes(of: action) { Array($0) }, encoding)
      return
    }
    if count >= capacity {
      for slot in used.indices where used[slot] {
        used[slot] = false
        encodings[slot] = ActionEncoding(value: .null, path: "")
      }
      count = 0
      actions.removeAll(keepingCapacity: true)
    }
    if 2 * (count + 1) > used.count {
      let (oldUsed, oldKeys, oldEncodings) = (used, keys, encodings)
      makeSlots(log2: 64 - shift + 1)
      for slot in oldUsed.indices where oldUsed[slot] {
        place(oldKeys[slot], oldEncodings[slot])
      }
    }
    place(Self.bits(of: action), encoding)
    actions.append(action)
  }

  /// Puts `encoding` in the slot of `key`: the one that holds it, else a free one.
  private mutating func place(_ key: ActionBits, _ encoding: ActionEncoding) {
    var slot = self.slot(of: key)
    while used[slot], keys[slot] != key { slot = (slot + 1) & (used.count - 1) }
    if !used[slot] {
      used[slot] = true
      keys[slot] = key
      count += 1
    }
    encodings[slot] = encoding
  }

  private static func bits<Action>(of action: Action) -> ActionBits {
    precondition(MemoryLayout<Action>.size <= MemoryLayout<ActionBits>.size)
    var bits = ActionBits()
    withUnsafeBytes(of: action) { source in
      withUnsafeMutableBytes(of: &bits.words) { $0.copyMemory(from: source) }
    }
    return bits
  }
}

/// An action's encoding and case path.
struct ActionEncoding {
  var value: TraceValue
  var path: String
}

/// An action's bits (its `size` bytes), zero-padded to eight words (see `EncodedActions`).
private struct ActionBits: Equatable {
  var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)

  static func == (lhs: ActionBits, rhs: ActionBits) -> Bool {
    lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
      && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
      && lhs.words.5 == rhs.words.5 && lhs.words.6 == rhs.words.6
      && lhs.words.7 == rhs.words.7
  }

  /// The words mixed into one (Horner's rule, base 31); `EncodedActions` spreads it.
  var mixed: UInt64 {
    var mixed = words.0
    mixed = mixed &* 31 &+ words.1
    mixed = mixed &* 31 &+ words.2
    mixed = mixed &* 31 &+ words.3
    mixed = mixed &* 31 &+ words.4
    mixed = mixed &* 31 &+ words.5
    mixed = mixed &* 31 &+ words.6
    mixed = mixed &* 31 &+ words.7
    return mixed
  }
}
