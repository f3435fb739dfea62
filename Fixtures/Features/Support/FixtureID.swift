import Foundation

extension UUID {
  /// A deterministic UUID for sample data and seeded sessions: the last 12 hex digits spell
  /// `index`, the 4 before them `namespace`, so two kinds of sample ids never collide.
  ///
  /// ```swift
  /// UUID(fixture: 10, namespace: 1)  // 00000000-0000-0000-0001-00000000000A
  /// ```
  public init(fixture index: UInt64, namespace: UInt16 = 0) {
    func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 {
      UInt8(truncatingIfNeeded: value >> shift)
    }
    let space = UInt64(namespace)
    self.init(uuid: (
      0, 0, 0, 0, 0, 0, 0, 0,
      byte(space, 8), byte(space, 0),
      byte(index, 40), byte(index, 32), byte(index, 24), byte(index, 16), byte(index, 8),
      byte(index, 0)
    ))
  }
}
