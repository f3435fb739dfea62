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
    let oldLines = ReflectionDumper.dump(old).split(separator: "\n", omittingEmptySubsequences: false)
    let newLines = ReflectionDumper.dump(new).split(separator: "\n", omittingEmptySubsequences: false)
    output.write("received action:\n  ")
    output.write(ReflectionDumper.dump(action))
    output.write("\n")
    let difference = newLines.difference(from: oldLines)
    if difference.isEmpty {
      output.write("  (No state changes)\n")
      return
    }
    for change in difference {
      switch change {
      case .remove(_, let line, _):
        output.write("- ")
        output.write(String(line))
      case .insert(_, let line, _):
        output.write("+ ")
        output.write(String(line))
      }
      output.write("\n")
    }
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
