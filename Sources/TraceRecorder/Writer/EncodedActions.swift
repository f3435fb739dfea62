import TraceKit

/// The encodings of the actions a writer met lately, found again by the action's bits: an app
/// sends the same few actions over and over (taps, ticks, rows' toggles), and encoding a
/// nested action through `Codable` costs tens of microseconds.
///
/// Same bits is the same action (see `Equality`: the entry keeps the older value alive, so a
/// buffer it shares cannot have changed); equal bits that hash differently (padding) only
/// miss. Bounded: the entries are dropped when `capacity` is reached.
///
/// ```swift
/// var actions = EncodedActions<App.Action>()
/// if let hit = actions.encoding(of: action) { … }         // nil the first time
/// actions.insert(action, value: encoded, path: "counter.plus")
/// ```
struct EncodedActions<Action> {
  struct Entry {
    var action: Action
    var value: TraceValue
    var path: String
  }

  private var entries: [Int: [Entry]] = [:]
  private var count = 0
  private let capacity: Int

  init(capacity: Int = 512) {
    self.capacity = capacity
  }

  func encoding(of action: Action) -> Entry? {
    entries[Self.bitsHash(action)]?.first { Equality.same($0.action, action) }
  }

  mutating func insert(_ action: Action, value: TraceValue, path: String) {
    if count >= capacity {
      entries.removeAll(keepingCapacity: true)
      count = 0
    }
    entries[Self.bitsHash(action), default: []].append(
      Entry(action: action, value: value, path: path))
    count += 1
  }

  /// A hash of the value's bits (its `size` bytes, as `Equality.same` compares them).
  private static func bitsHash(_ action: Action) -> Int {
    withUnsafeBytes(of: action) { bytes in
      var hasher = Hasher()
      hasher.combine(bytes: bytes)
      return hasher.finalize()
    }
  }
}
