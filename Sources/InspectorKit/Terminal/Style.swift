/// The colours the inspector uses, by role. When colour is off every role writes the text
/// unchanged, so piped output never holds an escape code.
///
/// ```swift
/// Style(colour: false).removed("- count: 1")  // "- count: 1"
/// Style(colour: true).removed("- count: 1")   // "\u{1B}[31m- count: 1\u{1B}[0m"
/// ```
struct Style: Sendable {
  var colour: Bool

  func removed(_ text: String) -> String { paint(text, "31") }
  func inserted(_ text: String) -> String { paint(text, "32") }
  func path(_ text: String) -> String { paint(text, "36") }
  func dim(_ text: String) -> String { paint(text, "2") }
  func bold(_ text: String) -> String { paint(text, "1") }
  func warning(_ text: String) -> String { paint(text, "33") }

  private func paint(_ text: String, _ code: String) -> String {
    guard colour, !text.isEmpty else { return text }
    return "\u{1B}[" + code + "m" + text + "\u{1B}[0m"
  }
}
