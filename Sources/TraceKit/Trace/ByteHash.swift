/// A quick hash of stored bytes, for tables that find a line's action again by its bytes
/// (typed replay's decoded actions, `export`'s written ones). Not the state hash: it is not
/// part of the format.
///
/// ```swift
/// [UInt8]("{}".utf8).withUnsafeBytes(ByteHash.fnv1a)  // 0x…: 64-bit FNV-1a
/// ```
package enum ByteHash {
  /// 64-bit FNV-1a of the bytes.
  package static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
  }
}
