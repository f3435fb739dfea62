/// Counts as every renderer prints them: thousands grouped with commas.
///
/// ```swift
/// DigitGrouping.grouped(9990)  // "9,990"
/// ```
package enum DigitGrouping {
  package static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { out += "," }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }
}
