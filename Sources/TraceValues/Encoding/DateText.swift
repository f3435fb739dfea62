/// How a trace writes a `Date`: ISO 8601 in UTC, with exactly the fraction digits that give the
/// same `Double` back, so a person reads a date and typed replay decodes the very same one.
///
/// ```swift
/// let date = Date(timeIntervalSince1970: 1_778_572_800.25)
/// DateText.text(seconds: date.timeIntervalSinceReferenceDate)  // "2026-05-12T08:00:00.25Z"
/// DateText.seconds(parsing: "2026-05-12T08:00:00.25Z")         // 800_265_600.25
/// ```
///
/// The fraction is the shortest decimal that reads back as the same `Double`, so no digit is
/// invented and none is lost. A date that is not finite, or outside the years 1…9999, has no
/// such text: the encoder writes its seconds since 2001 instead (what `Date`'s own `Codable`
/// writes).
package enum DateText {
  /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
  private static let referenceOffset: Int64 = 978_307_200

  /// The text of a date given as seconds since 2001-01-01 UTC; nil when it has none.
  static func text(seconds: Double) -> String? {
    guard seconds.isFinite, abs(seconds) < 1e12,
      let (negative, whole, fraction) = decimalParts(seconds)
    else { return nil }
    var second = negative ? -whole : whole
    var digits = fraction
    if negative && !fraction.isEmpty {
      // -5.25 s is 0.75 s into the second that begins at -6 s.
      second -= 1
      digits = complement(fraction)
    }
    let (days, secondOfDay) = floorDivision(second + referenceOffset, 86_400)
    let (year, month, day) = CivilDate.date(daysSince1970: days)
    guard (1...9999).contains(year) else { return nil }
    var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
    text += padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
    text += padded(secondOfDay % 60, 2)
    if !digits.isEmpty { text += "." + digits }
    return text + "Z"
  }

  /// The seconds since 2001-01-01 UTC of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`; nil for any other
  /// text, or a date that does not exist.
  package static func seconds(parsing text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...9999).contains(year), (1...12).contains(month),
      (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
    else { return nil }
    var fraction = ""
    if bytes.count > 20 {
      let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
      guard bytes[19] == UInt8(ascii: "."), bytes.count > 21,
        bytes[20..<(bytes.count - 1)].allSatisfy(isDigit)
      else { return nil }
      var digits = bytes[20..<(bytes.count - 1)]
      while digits.last == UInt8(ascii: "0") { digits = digits.dropLast() }
      fraction = String(decoding: digits, as: UTF8.self)
    } else if bytes.count != 20 {
      return nil
    }
    let whole =
      CivilDate.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600
      + minute * 60 + second - referenceOffset
    if fraction.isEmpty { return Double(whole) }
    if whole >= 0 { return Double("\(whole).\(fraction)") }
    // The second at `whole` plus the fraction, written as the negative decimal it is.
    return Double("-\(-whole - 1).\(complement(fraction))")
  }

  /// The sign, whole part and fraction digits (no trailing zeros) of the shortest decimal
  /// that reads back as `value`.
  private static func decimalParts(_ value: Double) -> (Bool, Int64, String)? {
    var text = Substring(value.magnitude.description)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      guard let parsed = Int(text[text.index(after: e)...]) else { return nil }
      exponent = parsed
      text = text[..<e]
    }
    let point = text.firstIndex(of: ".") ?? text.endIndex
    var digits = Array(text[..<point].utf8)
    if point < text.endIndex { digits += text[text.index(after: point)...].utf8 }
    var wholeCount = text.distance(from: text.startIndex, to: point) + exponent
    if wholeCount < 0 {
      digits = [UInt8](repeating: UInt8(ascii: "0"), count: -wholeCount) + digits
      wholeCount = 0
    }
    if wholeCount > digits.count {
      digits += [UInt8](repeating: UInt8(ascii: "0"), count: wholeCount - digits.count)
    }
    var fraction = digits[wholeCount...]
    while fraction.last == UInt8(ascii: "0") { fraction = fraction.dropLast() }
    var whole: Int64 = 0
    for byte in digits[..<wholeCount] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      whole = whole * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    return (value < 0, whole, String(decoding: fraction, as: UTF8.self))
  }

  /// 10^n − f for the n digits of f, which end in a nonzero digit (so does the result): the
  /// last digit is 10 minus f's, the others 9 minus f's.
  private static func complement(_ digits: String) -> String {
    var result = Array(digits.utf8)
    for index in result.indices {
      let digit = result[index] - UInt8(ascii: "0")
      result[index] = UInt8(ascii: "0") + (index == result.count - 1 ? 10 - digit : 9 - digit)
    }
    return String(decoding: result, as: UTF8.self)
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    return (quotient, value - quotient * divisor)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  private static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
