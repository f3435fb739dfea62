/// The marks at the start of a diff line, as a value (in the manner of swift-custom-dump):
/// one for lines only in the first value, one for lines only in the second, one for both.
///
/// ```swift
/// DiffFormat.default.first   // "-"
/// DiffFormat.default.second  // "+"
/// DiffFormat.default.both    // " "
/// ```
struct DiffFormat: Sendable, Equatable {
  var first: String
  var second: String
  var both: String

  static let `default` = DiffFormat(first: "-", second: "+", both: " ")
}
