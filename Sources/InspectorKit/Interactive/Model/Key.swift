/// One input event of the interactive view, as the terminal layer reads it (or a test
/// scripts it).
///
/// ```swift
/// let keys: [Key] = [.character("j"), .down, .control("c")]
/// ```
package enum Key: Sendable, Equatable, Hashable {
  case character(Character)
  /// A control character typed with Ctrl (`.control("c")` is Ctrl-C).
  case control(Character)
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, escape, backspace, tab, backTab
  /// The terminal changed size.
  case resize(width: Int, height: Int)
  case mouse(Mouse)

  /// A mouse event at a cell (0-based), where the terminal reports them.
  package struct Mouse: Sendable, Equatable, Hashable {
    package enum Action: Sendable, Equatable, Hashable {
      case press
      case wheelUp
      case wheelDown
    }

    package var action: Action
    package var row: Int
    package var column: Int

    package init(_ action: Action, row: Int, column: Int) {
      self.action = action
      self.row = row
      self.column = column
    }
  }

  /// Keys written as text, for scripts and tests: each character is a key, and `<name>` is
  /// one of `up`, `down`, `left`, `right`, `pgup`, `pgdn`, `home`, `end`, `enter`, `esc`,
  /// `bs`, `tab`, `btab`, `C-x` (Ctrl-x).
  ///
  /// ```swift
  /// Key.script("jj<enter>:12<enter>")  // [j, j, enter, :, 1, 2, enter]
  /// ```
  package static func script(_ text: String) -> [Key] {
    var keys: [Key] = []
    var rest = Substring(text)
    while let first = rest.first {
      if first == "<", let close = rest.firstIndex(of: ">"), close > rest.startIndex {
        let name = rest[rest.index(after: rest.startIndex)..<close]
        if let key = named(String(name)) {
          keys.append(key)
          rest = rest[rest.index(after: close)...]
          continue
        }
      }
      keys.append(.character(first))
      rest = rest.dropFirst()
    }
    return keys
  }

  private static func named(_ name: String) -> Key? {
    switch name {
    case "up": .up
    case "down": .down
    case "left": .left
    case "right": .right
    case "pgup": .pageUp
    case "pgdn": .pageDown
    case "home": .home
    case "end": .end
    case "enter": .enter
    case "esc": .escape
    case "bs": .backspace
    case "tab": .tab
    case "btab": .backTab
    default:
      if name.hasPrefix("C-"), name.count == 3, let letter = name.last {
        .control(letter)
      } else {
        nil
      }
    }
  }
}
