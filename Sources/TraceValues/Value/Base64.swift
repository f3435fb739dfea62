/// Standard base64 (RFC 4648, `+/`, with `=` padding), for `.bytes` in the JSON form.
enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let reverse: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  static func encode<Output: JSONOutput & ~Copyable>(_ bytes: [UInt8], into buffer: inout Output)
  {
    let alphabet = Self.alphabet
    var index = 0
    let count = bytes.count
    buffer.reserveMore((count + 2) / 3 * 4)
    while index + 3 <= count {
      let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
        | UInt32(bytes[index + 2])
      buffer.appendByte(alphabet[Int(chunk >> 18)])
      buffer.appendByte(alphabet[Int(chunk >> 12 & 0x3F)])
      buffer.appendByte(alphabet[Int(chunk >> 6 & 0x3F)])
      buffer.appendByte(alphabet[Int(chunk & 0x3F)])
      index += 3
    }
    switch count - index {
    case 1:
      let chunk = UInt32(bytes[index]) << 16
      buffer.appendByte(alphabet[Int(chunk >> 18)])
      buffer.appendByte(alphabet[Int(chunk >> 12 & 0x3F)])
      buffer.appendByte(UInt8(ascii: "="))
      buffer.appendByte(UInt8(ascii: "="))
    case 2:
      let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      buffer.appendByte(alphabet[Int(chunk >> 18)])
      buffer.appendByte(alphabet[Int(chunk >> 12 & 0x3F)])
      buffer.appendByte(alphabet[Int(chunk >> 6 & 0x3F)])
      buffer.appendByte(UInt8(ascii: "="))
    default:
      break
    }
  }

  /// Decodes strict padded base64; `nil` for any other text (including non-zero pad bits, so
  /// that every byte string has exactly one encoding).
  static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 4 * 3)
    var index = 0
    while index < input.count {
      let isLast = index + 4 == input.count
      let a = reverse[Int(input[index])]
      let b = reverse[Int(input[index + 1])]
      guard a != 0xFF, b != 0xFF else { return nil }
      let c3 = input[index + 2]
      let c4 = input[index + 3]
      if isLast && c3 == UInt8(ascii: "=") {
        guard c4 == UInt8(ascii: "="), b & 0x0F == 0 else { return nil }
        output.append(a << 2 | b >> 4)
        return output
      }
      let c = reverse[Int(c3)]
      guard c != 0xFF else { return nil }
      if isLast && c4 == UInt8(ascii: "=") {
        guard c & 0x03 == 0 else { return nil }
        output.append(a << 2 | b >> 4)
        output.append(b << 4 | c >> 2)
        return output
      }
      let d = reverse[Int(c4)]
      guard d != 0xFF else { return nil }
      output.append(a << 2 | b >> 4)
      output.append(b << 4 | c >> 2)
      output.append(c << 6 | d)
      index += 4
    }
    return output
  }
}
