#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Equality is structural and exact: doubles compare by bit pattern (so `nan == nan` and
// `0.0 != -0.0`), which is what a diff and a replay check need: "is this the same recording?".
// Strings compare by their UTF-8 bytes, not by Swift's canonical equivalence: "é" and
// "e\u{301}" are different recordings, hash differently (`stableHash` hashes bytes), and a
// diff between them must not be empty, or a patched state would fail its hash check.

extension TraceValue: Hashable {
  public static func == (lhs: TraceValue, rhs: TraceValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case let (.bool(a), .bool(b)): a == b
    case let (.int(a), .int(b)): a == b
    case let (.uint(a), .uint(b)): a == b
    case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
    case let (.string(a), .string(b)): sameUTF8(a, b)
    case let (.bytes(a), .bytes(b)): a == b
    case let (.array(a), .array(b)): a == b
    case let (.object(a), .object(b)): a == b
    case let (.enumCase(n, a), .enumCase(m, b)): sameUTF8(n, m) && a == b
    case let (.reflected(t, a), .reflected(u, b)): sameUTF8(t, u) && a == b
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .int(let i): hasher.combine(i)
    case .uint(let u): hasher.combine(u)
    case .double(let d): hasher.combine(d.bitPattern)
    case .string(let s): hasher.combine(s)
    case .bytes(let b): hasher.combine(b)
    case .array(let a): hasher.combine(a)
    case .object(let fields): hasher.combine(fields)
    case .enumCase(let name, let fields):
      hasher.combine(name)
      hasher.combine(fields)
    case .reflected(let type, let value):
      hasher.combine(type)
      hasher.combine(value)
    }
  }
}

extension TraceField {
  public static func == (lhs: TraceField, rhs: TraceField) -> Bool {
    sameUTF8(lhs.key, rhs.key) && lhs.value == rhs.value
  }
}

/// Whether two strings have the same UTF-8 bytes (Swift's `==` also equates canonically
/// equivalent strings with different bytes).
@inline(__always)
func sameUTF8(_ lhs: String, _ rhs: String) -> Bool {
  // A replay sets a field whose key is the very string the state holds: found without
  // reading either string's bytes.
  if sameBits(lhs, rhs) { return true }
  guard lhs.utf8.count == rhs.utf8.count else { return false }
  var lhs = lhs
  var rhs = rhs
  return lhs.withUTF8 { left in
    rhs.withUTF8 { right in
      // memcmp: a byte-by-byte `elementsEqual` was a fifth of diff time.
      left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
    }
  }
}

/// Whether two strings are the same bits: the same small string, or the same buffer (which
/// both hold, so neither can have changed it in place). Same bits, same UTF-8; other bits
/// may still be the same UTF-8 (`sameUTF8`). The writer's field walker compares leaves with
/// it too.
@inlinable @inline(__always)
package func sameBits(_ lhs: String, _ rhs: String) -> Bool {
  unsafeBitCast(lhs, to: (UInt64, UInt64).self) == unsafeBitCast(rhs, to: (UInt64, UInt64).self)
}
