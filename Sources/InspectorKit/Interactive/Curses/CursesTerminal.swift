import CNcursesw

#if canImport(Glibc)
  import Glibc
#endif

/// The only code of the inspector that talks to a terminal screen, through ncursesw: it takes
/// the terminal (alternate screen, raw keys, mouse reports), draws `ScreenGrid`s, reads keys,
/// and gives the terminal back exactly as it was (`end()`, also on `deinit`).
///
/// ```swift
/// let terminal = try CursesTerminal(colour: true)
/// defer { terminal.end() }
/// terminal.draw(try session.screen())
/// let key = terminal.readKey(timeoutMilliseconds: 100)
/// ```
///
/// Keys are read in raw mode, so Ctrl-C is a key the view handles (it quits like `q`) rather
/// than a signal that would kill the process before the terminal is restored; SIGINT and
/// SIGTERM sent from elsewhere are caught by `TerminationSignals` and end the loop the same
/// way.
final class CursesTerminal {
  private var screen: OpaquePointer?
  private let colour: Bool
  private var savedCursor: Int32 = 1

  /// Takes the terminal. The locale's character set must be UTF-8 for ncursesw to write
  /// multibyte characters: `DisplayWidth` sets a UTF-8 `LC_CTYPE` when it is not.
  init(colour: Bool) throws(InspectorError) {
    DisplayWidth.ensureUTF8Locale()
    // newterm, unlike initscr, returns nil for an unknown terminal instead of exiting.
    guard let screen = rewind_newterm() else {
      let name = getenv("TERM").map { String(cString: $0) } ?? ""
      throw .usage(
        "cannot use the terminal '\(name)' (no terminfo entry for it); "
          + "use the batch commands: info, log, show, diff, tree, effects, replay, follow, export",
        where: "open")
    }
    self.screen = screen
    set_term(screen)
    raw()
    noecho()
    nonl()
    keypad(rewind_stdscr(), true)
    set_escdelay(25)
    savedCursor = curs_set(0)
    mouseinterval(0)
    mousemask(
      rewind_mouse_button1_pressed() | rewind_mouse_button4_pressed()
        | rewind_mouse_button5_pressed(), nil)
    self.colour = colour && has_colors()
    if self.colour {
      start_color()
      use_default_colors()
      for (pair, foreground) in Self.pairs { init_pair(pair, foreground, -1) }
    }
  }

  deinit { end() }

  /// Gives the terminal back: cursor, modes, main screen, mouse reports off. Safe to call
  /// more than once.
  func end() {
    guard let screen else { return }
    self.screen = nil
    if savedCursor >= 0 { curs_set(savedCursor) }
    endwin()
    delscreen(screen)
  }

  /// Columns and rows of the terminal now.
  var size: (width: Int, height: Int) { (Int(rewind_columns()), Int(rewind_lines())) }

  /// Draws a frame: each run of cells with one role in one call; ncurses sends only what
  /// changed since the last frame.
  func draw(_ grid: ScreenGrid) {
    guard screen != nil else { return }
    let height = min(grid.height, Int(rewind_lines()))
    let width = min(grid.width, Int(rewind_columns()))
    for row in 0..<height {
      var column = 0
      while column < width {
        let style = grid[row, column].style
        var text = ""
        let start = column
        while column < width, grid[row, column].style == style {
          text += grid[row, column].text
          column += 1
        }
        apply(style)
        mvaddstr(Int32(row), Int32(start), text)
      }
    }
    apply(.plain)
    refresh()
  }

  /// The next key, or nil when none came within the timeout (0: do not wait).
  func readKey(timeoutMilliseconds: Int32) -> Key? {
    timeout(timeoutMilliseconds)
    var character: wint_t = 0
    let result = get_wch(&character)
    if result == ERR { return nil }
    if result == KEY_CODE_YES { return functionKey(Int32(character)) }
    return characterKey(UInt32(character))
  }

  private func functionKey(_ code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE, KEY_DC: return .backspace
    case KEY_BTAB: return .backTab
    case KEY_RESIZE: return .resize(width: Int(rewind_columns()), height: Int(rewind_lines()))
    case KEY_MOUSE: return mouseKey()
    default: return nil
    }
  }

  private func characterKey(_ value: UInt32) -> Key? {
    switch value {
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x1B: return .escape
    case 0x08, 0x7F: return .backspace
    case 0x01...0x1A:
      return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
    default:
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return .character(Character(scalar))
    }
  }

  private func mouseKey() -> Key? {
    var event = MEVENT()
    guard getmouse(&event) == OK else { return nil }
    let state = event.bstate
    let action: Key.Mouse.Action
    if state & rewind_mouse_button4_pressed() != 0 {
      action = .wheelUp
    } else if state & rewind_mouse_button5_pressed() != 0 {
      action = .wheelDown
    } else if state & rewind_mouse_button1_pressed() != 0 {
      action = .press
    } else {
      return nil
    }
    return .mouse(Key.Mouse(action, row: Int(event.y), column: Int(event.x)))
  }

  /// Colour pairs by role (foreground on the terminal's own background).
  private static let pairs: [(Int16, Int16)] = [
    (1, Int16(COLOR_RED)), (2, Int16(COLOR_GREEN)), (3, Int16(COLOR_CYAN)),
    (4, Int16(COLOR_YELLOW)), (5, Int16(COLOR_MAGENTA)),
  ]

  private func apply(_ style: CellStyle) {
    let (attributes, pair) = Self.attributes(style, colour: colour)
    attr_set(attributes, pair, nil)
  }

  /// What a role looks like: colours when colour is on; without colour only what needs no
  /// colour (bold, dim, reverse, underline), so the view reads the same in black and white.
  static func attributes(_ style: CellStyle, colour: Bool) -> (attr_t, Int16) {
    switch style {
    case .plain: (rewind_attr_normal(), 0)
    case .dim, .border: (rewind_attr_dim(), 0)
    case .bold: (rewind_attr_bold(), 0)
    case .removed: colour ? (rewind_attr_normal(), 1) : (rewind_attr_normal(), 0)
    case .inserted: colour ? (rewind_attr_normal(), 2) : (rewind_attr_normal(), 0)
    case .path: colour ? (rewind_attr_normal(), 3) : (rewind_attr_normal(), 0)
    case .warning: colour ? (rewind_attr_bold(), 4) : (rewind_attr_bold(), 0)
    case .hit:
      colour ? (rewind_attr_bold(), 5) : (rewind_attr_bold() | rewind_attr_underline(), 0)
    case .cursor: (rewind_attr_reverse(), 0)
    case .cursorInactive: (rewind_attr_reverse() | rewind_attr_dim(), 0)
    }
  }
}
