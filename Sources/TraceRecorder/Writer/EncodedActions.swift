import TraceKit

/// The encodings of the actions a writer met lately, found again by the action's bits: an app
/// sends the same few actions over and over (taps, ticks, rows' toggles), and encoding a
/// nested action through `Codable` costs tens of microseconds.
///
/// Same bits is the same action (see `Equality`: the entry keeps the older value alive, so a
/// buffer it shares cannot have changed); equal actions whose bits differ (padding, another
/// buffer) only miss. An action of at most 32 bytes (most: a case with a few scalars, an id,
/// a short string) is looked up by its bits copied into words; a larger one is compared with
/// the last one only. Bounded: the entries are dropped when `capacity` is
/// reached.
///
/// ```swift
/// var actions = EncodedActions<App.Action>()
/// if let hit = actions.encoding(of: action) { … }  // nil the first time
/// actions.insert(action, value: encoded, path: "counter.plus")
/// ```
struct EncodedActions<Action> {
  /// Non-generic (as the two types below), so that a look-up costs no generic calls: the
  /// writer's code is not specialized for the app's types.
  private var entries: [ActionBits: ActionEncoding] = [:]
  /// The actions of `entries`, kept alive so that their bits stay theirs.
  private var actions: [Action] = []
  /// A larger action: the last one and its encoding.
  private var last: (action: Action, encoding: ActionEncoding)?
  private let capacity: Int
  private let fitsInBits = MemoryLayout<Action>.size <= MemoryLayout<ActionBits>.size

  init(capacity: Int = 512) {
    self.capacity = capacity
  }

  func encoding(of action: Action) -> ActionEncoding? {
    guard fitsInBits else {
      guard let last, Equality.same(last.action, action) else { return nil }
      return last.encoding
    }
    return entries[Self.bits(of: action)]
  }

  mutating func insert(_ action: Action, value: TraceValue, path: String) {
    let encoding = ActionEncoding(value: value, path: path)
    guard fitsInBits else {
      last = (action, encoding)
      return
    }
    if entries.count >= capacity {
      entries.removeAll(keepingCapacity: true)
      actions.removeAll(keepingCapacity: true)
    }
    entries[Self.bits(of: action)] = encoding
    actions.append(action)
  }

  private static func bits(of action: Action) -> ActionBits {
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

/// An action's bits (its `size` bytes), zero-padded to four words (see `EncodedActions`).
private struct ActionBits: Hashable {
  var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

  static func == (lhs: ActionBits, rhs: ActionBits) -> Bool {
    lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
      && lhs.words.3 == rhs.words.3
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(words.0 &+ words.1 &* 31 &+ words.2 &* 961 &+ words.3 &* 29_791)
  }
}
