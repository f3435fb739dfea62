import TraceValues

extension Style {
  /// A diff line coloured by the value it belongs to: removals red, insertions green.
  ///
  /// ```swift
  /// Style(colour: true).diff(.first, "- count: 1")  // "\u{1B}[31m- count: 1\u{1B}[0m"
  /// ```
  func diff(_ kind: DiffRenderer.LineKind, _ text: String) -> String {
    switch kind {
    case .first: removed(text)
    case .second: inserted(text)
    case .both: text
    }
  }
}
