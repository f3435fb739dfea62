/// The marks at the start of a diff line, as a value (in the manner of swift-custom-dump):
/// one for lines only in the first value, one for lines only in the second, one for both.
///
/// ```swift
/// DiffFormat.default.first   // "-"
/// DiffFormat.default.second  // "+"
/// DiffFormat.default.both    // " "
/// ```
package struct DiffFormat: Sendable, Equatable {
  package var first: String
  package var second: String
  package var both: String

  package init(first: String, second: String, both: String) {
    self.first = first
    self.second = second
    self.both = both
  }

  package static let `default` = DiffFormat(first: "-", second: "+", both: " ")
}
