/// What a cell of the interactive view means, not how it looks: the drawing layer turns each
/// role into colours (when colour is on) or plain attributes (bold, dim, reverse), so the
/// screen model and its tests never depend on the terminal.
///
/// ```swift
/// CellStyle.removed.letter  // "r": how a snapshot of the styles writes it
/// ```
package enum CellStyle: Sendable, Equatable, CaseIterable {
  case plain
  /// Secondary text: times, counts, folded runs.
  case dim
  /// Titles and the active tab.
  case bold
  /// A line only in the first value of a diff.
  case removed
  /// A line only in the second value of a diff.
  case inserted
  /// State paths.
  case path
  /// Dropped steps, a writer gone, an error message.
  case warning
  /// A search hit, a node the step's action went through.
  case hit
  /// The cursor in the focused pane.
  case cursor
  /// The cursor in the pane without focus.
  case cursorInactive
  /// Frames and separators.
  case border

  /// One letter per role, for the style layer of snapshot files.
  package var letter: Character {
    switch self {
    case .plain: " "
    case .dim: "d"
    case .bold: "b"
    case .removed: "r"
    case .inserted: "i"
    case .path: "p"
    case .warning: "w"
    case .hit: "h"
    case .cursor: "C"
    case .cursorInactive: "c"
    case .border: "-"
    }
  }
}
