import TraceKit

/// One line of the detail pane (the right side of `inspector open`), with what it leads to:
/// Enter on an effect's line goes to a step; on a State line it opens or closes the value.
///
/// ```swift
/// DetailLine("  sent: step 6  child.timerTicked", step: 6)
/// ```
package struct DetailLine: Sendable, Equatable {
  package var text: String
  package var style: CellStyle
  /// The step Enter goes to.
  package var step: Int?
  /// The value a State line shows.
  package var path: TracePath?
  /// For a State line of a container: whether it is open; nil for other lines.
  package var isOpen: Bool?

  package init(
    _ text: String, style: CellStyle = .plain, step: Int? = nil, path: TracePath? = nil,
    isOpen: Bool? = nil
  ) {
    self.text = text
    self.style = style
    self.step = step
    self.path = path
    self.isOpen = isOpen
  }
}
