/// A value of an interned column, as `RecentIDs` tells values apart: by bits, by a key cheap
/// to hash, then by the key that makes one row. An action path is a `String` (canonically
/// equal paths are one row); a changed-path set is a `[String]` (sets of the same bytes are
/// one row).
///
/// Each compare only ever finds values of one row: the same bits are the same value while
/// both are held, and equal quick keys are equal row keys.
///
/// ```swift
/// let path = "counter.increment"
/// String.sameBits(path, path)                  // true
/// "caf\u{E9}".rowKey == "cafe\u{301}".rowKey  // true: canonically equal
/// ```
protocol InternedValue {
  /// A key equal only for values of one row, cheaper to hash than `RowKey`.
  associatedtype QuickKey: Hashable
  /// Equal exactly for values stored as one row.
  associatedtype RowKey: Hashable
  /// Whether two values are the same bits (a storage both hold, which neither changed).
  static func sameBits(_ lhs: Self, _ rhs: Self) -> Bool
  var quickKey: QuickKey { get }
  var rowKey: RowKey { get }
}

/// Action paths: found by their bytes (`StringBytesKey`) before `String`'s own hash, which
/// runs the text through SipHash (about 400 instructions a path).
extension String: InternedValue {
  @inline(__always)
  static func sameBits(_ lhs: String, _ rhs: String) -> Bool {
    TraceValues.sameBits(lhs, rhs)
  }

  var quickKey: StringBytesKey { StringBytesKey(self) }
  var rowKey: String { self }
}

/// Changed-path sets: found by their strings' bits (`StringListBitsKey`: a step's changed
/// paths are the line encoder's kept texts) before their bytes (`StringListKey`).
extension Array: InternedValue where Element == String {
  /// The same array (a step's texts are the line encoder's kept array when its paths are the
  /// step before's) is found without reading the strings.
  @inline(__always)
  static func sameBits(_ lhs: [String], _ rhs: [String]) -> Bool {
    lhs.withUnsafeBufferPointer { left in
      rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
    } || StringListBitsKey.sameBits(lhs, rhs)
  }

  var quickKey: StringListBitsKey { StringListBitsKey(self) }
  var rowKey: StringListKey { StringListKey(self) }
}
