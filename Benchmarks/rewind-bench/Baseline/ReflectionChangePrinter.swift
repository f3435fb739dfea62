/// The upstream library's `_printChanges`, reproduced as the benchmarks' reference point: on
/// every action, dump the action and the old and the new state by reflection, diff the two
/// dumps line by line (the standard library's Myers diff), and print the changed lines.
///
/// ```swift
/// var printer = ReflectionChangePrinter()
/// printer.printChanges(action: Action.plus, old: State(count: 0), new: State(count: 1))
/// print(printer.output.text)
/// // received action:
/// //   Action.plus
/// // - State(count: 0)
/// // + State(count: 1)
/// ```
///
/// The text goes to an in-memory sink instead of the terminal, so the baseline does not pay
/// for terminal output (which would only make the Recorder look better).
struct ReflectionChangePrinter {
  var output = CountingSink()

  mutating func printChanges(action: Any, old: Any, new: Any) {
    let oldLines = Self.lines(ReflectionDumper.dump(old))
    let newLines = Self.lines(ReflectionDumper.dump(new))
    output.write("received action:\n")
    for line in Self.lines(ReflectionDumper.dump(action)) {
      output.write("  " + line + "\n")
    }
    let difference = newLines.difference(from: oldLines)
    if difference.isEmpty {
      output.write("  (No state changes)\n")
      return
    }
    // Print the changed lines in the order of the dumps (unchanged ones left out), walking
    // both dumps as a unified diff does.
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in difference {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    var oldIndex = 0
    var newIndex = 0
    while oldIndex < oldLines.count || newIndex < newLines.count {
      if removed.contains(oldIndex) {
        output.write("- " + oldLines[oldIndex] + "\n")
        oldIndex += 1
      } else if inserted.contains(newIndex) {
        output.write("+ " + newLines[newIndex] + "\n")
        newIndex += 1
      } else {
        oldIndex += 1
        newIndex += 1
      }
    }
  }

  /// The lines of `text`, split on the newline byte (splitting by `Character` walks grapheme
  /// clusters and took a quarter of the baseline's time when profiled).
  static func lines(_ text: String) -> [Substring] {
    text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { Substring($0) }
  }
}

/// A text stream that keeps the byte count and the last write (enough to check the output and
/// to keep the optimizer from dropping the work).
struct CountingSink: TextOutputStream {
  private(set) var byteCount = 0
  private(set) var writeCount = 0
  /// Everything written, kept only when asked (tests of the printer, not the benchmark).
  private(set) var text = ""
  var keepsText = false

  mutating func write(_ string: String) {
    byteCount += string.utf8.count
    writeCount += 1
    if keepsText { text += string }
  }
}
