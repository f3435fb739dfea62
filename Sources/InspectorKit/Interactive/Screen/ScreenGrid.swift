import TraceValues

/// The interactive view's screen as a value: a grid of cells, each a character and its role.
/// The view computes one from its model for every frame; tests compare it with snapshot files;
/// only the drawing layer (`CursesTerminal`) sends it to a terminal.
///
/// ```swift
/// var grid = ScreenGrid(width: 12, height: 2)
/// grid.write("한국어 text", row: 0, column: 0, style: .bold)
/// grid.write("a long line", row: 1, column: 0, limit: 6)
/// print(grid.text, terminator: "")
/// // 한국어 text
/// // a lon…
/// ```
///
/// Whatever is written is made safe first: control characters, escape sequences and
/// direction overrides become Swift escapes (`\u{1B}`), as in the batch commands, and a
/// character the terminal cannot print (`wcwidth` below 1) is written as its escape too. A
/// wide character takes two cells (the second holds ""); one that would cross the edge is
/// left out.
package struct ScreenGrid: Sendable, Equatable {
  package struct Cell: Sendable, Equatable {
    /// One character, or "" for the second cell of a wide one.
    package var text: String
    package var style: CellStyle
  }

  package let width: Int
  package let height: Int
  package private(set) var cells: [Cell]

  package init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(
      repeating: Cell(text: " ", style: .plain), count: self.width * self.height)
  }

  package subscript(row: Int, column: Int) -> Cell {
    cells[row * width + column]
  }

  /// Writes `text` from `column` on, within `limit` columns (to the right edge by default);
  /// text that does not fit ends with `…`. Returns the columns used.
  @discardableResult
  package mutating func write(
    _ text: String, row: Int, column: Int, limit: Int? = nil, style: CellStyle = .plain
  ) -> Int {
    guard row >= 0, row < height, column >= 0, column < width else { return 0 }
    let room = min(limit ?? (width - column), width - column)
    guard room > 0 else { return 0 }
    let pieces = Self.printable(text)
    let total = pieces.reduce(0) { $0 + $1.width }
    var used = 0
    let budget = total > room ? room - 1 : room
    for piece in pieces {
      if used + piece.width > budget { break }
      set(row, column + used, piece.text, width: piece.width, style: style)
      used += piece.width
    }
    if total > room {
      set(row, column + used, "…", width: 1, style: style)
      used += 1
    }
    return used
  }

  /// Blanks `from..<to` of a row with `style` (a cursor bar, a cleared line).
  package mutating func fill(row: Int, from: Int, to: Int, style: CellStyle = .plain) {
    guard row >= 0, row < height else { return }
    for column in max(0, from)..<max(max(0, from), min(to, width)) {
      set(row, column, " ", width: 1, style: style)
    }
  }

  /// Gives `from..<to` of a row another role without changing its text.
  package mutating func paint(row: Int, from: Int, to: Int, style: CellStyle) {
    guard row >= 0, row < height else { return }
    for column in max(0, from)..<max(max(0, from), min(to, width)) {
      cells[row * width + column].style = style
    }
  }

  /// The rows as text, trailing spaces removed.
  package var lines: [String] {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line += cells[row * width + column].text }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// Every row and a line end after each.
  package var text: String {
    lines.map { $0 + "\n" }.joined()
  }

  /// The roles, one letter per cell (`CellStyle.letter`), trailing blanks removed: the style
  /// layer of a snapshot.
  package var styleLines: [String] {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line.append(cells[row * width + column].style.letter) }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  private mutating func set(
    _ row: Int, _ column: Int, _ text: String, width cellWidth: Int, style: CellStyle
  ) {
    let base = row * width
    // Overwriting half of a wide character blanks its other half.
    if cells[base + column].text.isEmpty, column > 0 {
      cells[base + column - 1].text = " "
    }
    let end = column + cellWidth
    if end < width, cells[base + end].text.isEmpty {
      cells[base + end].text = " "
    }
    cells[base + column] = Cell(text: text, style: style)
    if cellWidth == 2 { cells[base + column + 1] = Cell(text: "", style: style) }
  }

  /// The text cut into what cells hold: characters with their widths, unprintable ones as
  /// escapes.
  static func printable(_ text: String) -> [(text: String, width: Int)] {
    var pieces: [(text: String, width: Int)] = []
    for character in EscapedText.plain(text) {
      let width = DisplayWidth.of(character)
      if width == 1 || width == 2 {
        pieces.append((String(character), width))
        continue
      }
      for scalar in character.unicodeScalars {
        let escape = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        for piece in escape { pieces.append((String(piece), 1)) }
      }
    }
    return pieces
  }
}
