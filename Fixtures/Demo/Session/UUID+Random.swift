import Foundation

extension UUID {
  /// A version-4-shaped UUID from 128 random bits.
  init(random bits: (UInt64, UInt64)) {
    let high = (bits.0 & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
    let low = (bits.1 & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    func byte(_ value: UInt64, _ index: Int) -> UInt8 {
      UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * index))
    }
    self.init(uuid: (
      byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
      byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
      byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
      byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
    ))
  }
}
