/// A structural `-`/`+` diff of two values: changed fields are shown, unchanged siblings are
/// folded.
///
/// ```swift
/// StateDiff.render(Counter.State(count: 1), Counter.State(count: 2))
/// //   Counter.State(
/// // -   count: 1
/// // +   count: 2
/// //     … (1 unchanged)
/// //   )
/// ```
///
/// Each line starts with a marker column (`-` first value, `+` second value, ` ` both),
/// then a space, then the value indented two spaces per level.
enum StateDiff {
  static func render(_ first: Any, _ second: Any) -> String {
    var lines: [String] = []
    diff(ValueDump(first), ValueDump(second), label: nil, depth: 0, into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func diff(
    _ first: ValueDump,
    _ second: ValueDump,
    label: String?,
    depth: Int,
    into lines: inout [String]
  ) {
    if first == second {
      lines += first.lines(label: label, depth: depth).map { "  " + $0 }
      return
    }
    let sameShape =
      first.footer != nil && first.header == second.header && first.footer == second.footer
      && first.children.map(\.label) == second.children.map(\.label)
      && first.children.allSatisfy { $0.label != nil }
    guard sameShape else {
      lines += first.lines(label: label, depth: depth).map { "- " + $0 }
      lines += second.lines(label: label, depth: depth).map { "+ " + $0 }
      return
    }
    let indent = String(repeating: "  ", count: depth)
    let prefix = label.map { "\($0): " } ?? ""
    lines.append("  " + indent + prefix + first.header)
    var unchanged = 0
    func flushUnchanged() {
      guard unchanged > 0 else { return }
      lines.append("  " + indent + "  … (\(unchanged) unchanged)")
      unchanged = 0
    }
    for (left, right) in zip(first.children, second.children) {
      if left.dump == right.dump {
        unchanged += 1
      } else {
        flushUnchanged()
        diff(left.dump, right.dump, label: left.label, depth: depth + 1, into: &lines)
      }
    }
    flushUnchanged()
    lines.append("  " + indent + (first.footer ?? ""))
  }

  /// A value on its own, each line indented by `indent` spaces.
  static func dump(_ value: Any, indent: Int = 0) -> String {
    let pad = String(repeating: " ", count: indent)
    return ValueDump(value).lines().map { pad + $0 }.joined(separator: "\n")
  }
}
