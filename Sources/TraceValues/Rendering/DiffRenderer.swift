/// The one look of a change: renders the structural difference between two values in the
/// `-`/`+` style of swift-custom-dump: the ancestors of every change are shown, so its path is
/// visible; unchanged siblings fold into `… (N unchanged)` unless `context` asks to keep some
/// of them. Values are written by `ValueDumper`, so a diff reads like a dump. It serves
/// `inspector diff` and `replay`, the interactive view's Diff tab, TestStore failures and
/// Replay's divergence report.
///
/// ```swift
/// let old: TraceValue = .object([TraceField("count", .int(1)), TraceField("name", .string("a"))])
/// let new: TraceValue = .object([TraceField("count", .int(2)), TraceField("name", .string("a"))])
/// var out = ""
/// DiffRenderer(width: 80).render(from: old, to: new, into: &out)
/// print(out, terminator: "")
/// //   (
/// // -   count: 1,
/// // +   count: 2,
/// //     … (1 unchanged)
/// //   )
/// ```
package struct DiffRenderer: Sendable {
  /// Which value a line belongs to.
  package enum LineKind: Sendable, Equatable { case first, second, both }

  /// One line of a diff, its indentation included, without the mark.
  package struct Line: Sendable, Equatable {
    package var kind: LineKind
    package var text: String

    package init(kind: LineKind, text: String) {
      self.kind = kind
      self.text = text
    }
  }

  package var width: Int
  /// Unchanged siblings kept on each side of a change before the rest fold.
  package var context: Int
  package var format: DiffFormat
  /// Elements shown of an inserted or removed collection before the rest fold.
  package var maxItems: Int

  package init(
    width: Int = 80, context: Int = 0, format: DiffFormat = .default, maxItems: Int = 50
  ) {
    self.width = width
    self.context = context
    self.format = format
    self.maxItems = maxItems
  }

  /// Writes the diff; writes `(no changes)` when the values are equal. `paint` decorates each
  /// whole line by its kind (a terminal colours removals and insertions).
  package func render(
    from old: TraceValue, to new: TraceValue, typeName: String? = nil,
    into out: inout some TextOutputStream,
    paint: (LineKind, String) -> String = { $1 }
  ) {
    let result = diff(from: old, to: new, typeName: typeName)
    if result.lines.isEmpty {
      out.write(paint(.both, "(no changes)") + "\n")
      return
    }
    for line in result.lines {
      out.write(paint(line.kind, marked(line)) + "\n")
    }
  }

  /// The diff as text without a final line end (`(no changes)` for equal values).
  package func text(from old: TraceValue, to new: TraceValue, typeName: String? = nil) -> String {
    var out = ""
    render(from: old, to: new, typeName: typeName, into: &out)
    out.removeLast()
    return out
  }

  /// The diff as lines, and the path of every change in order (once each: an element moved
  /// in an identified array is shown removed and inserted, at one path).
  package func diff(
    from old: TraceValue, to new: TraceValue, typeName: String? = nil
  ) -> (lines: [Line], paths: [TracePath]) {
    guard old != new else { return ([], []) }
    var state = Walk()
    walk(old, new, label: "", typeName: typeName, indent: 0, suffix: "", at: [], &state)
    var seen = Set<TracePath>()
    return (state.lines, state.paths.filter { seen.insert($0).inserted })
  }

  /// The line with its mark: `- `, `+ ` or `  ` in the default format.
  package func marked(_ line: Line) -> String {
    switch line.kind {
    case .first: format.first + " " + line.text
    case .second: format.second + " " + line.text
    case .both: format.both + " " + line.text
    }
  }

  private struct Walk {
    var lines: [Line] = []
    var paths: [TracePath] = []
  }

  private var dumper: ValueDumper {
    ValueDumper(width: max(20, width - format.first.count - 1), maxItems: maxItems)
  }

  private func walk(
    _ old: TraceValue, _ new: TraceValue, label: String, typeName: String?, indent: Int,
    suffix: String, at path: [TracePath.Component], _ state: inout Walk
  ) {
    if let entries = pairedChildren(old, new) {
      let pad = String(repeating: " ", count: indent)
      let (open, close, _) = dumper.parts(of: new, typeName: typeName)
      state.lines.append(Line(kind: .both, text: pad + label + open))
      children(entries, indent: indent + 2, at: path, &state)
      state.lines.append(Line(kind: .both, text: pad + close + suffix))
      return
    }
    state.paths.append(TracePath(path))
    emit(old, .first, label: label, indent: indent, suffix: suffix, &state)
    emit(new, .second, label: label, indent: indent, suffix: suffix, &state)
  }

  private func emit(
    _ value: TraceValue, _ kind: LineKind, label: String, indent: Int, suffix: String,
    _ state: inout Walk
  ) {
    dumper.lines(value, label: label, indent: indent, suffix: suffix) {
      state.lines.append(Line(kind: kind, text: $0))
    }
  }

  /// One child position in a pair of containers.
  private enum Entry {
    case same(String, TraceValue)
    case changed(String, [TracePath.Component], TraceValue, TraceValue)
    case removed(String, [TracePath.Component], TraceValue)
    case inserted(String, [TracePath.Component], TraceValue)

    var isSame: Bool {
      if case .same = self { return true }
      return false
    }
  }

  private func children(
    _ entries: [Entry], indent: Int, at path: [TracePath.Component], _ state: inout Walk
  ) {
    let pad = String(repeating: " ", count: indent)
    let changed = entries.indices.filter { !entries[$0].isSame }
    var visible = [Bool](repeating: false, count: entries.count)
    // `--context` may be any count: more than the siblings there are shows them all.
    let reach = min(max(0, context), entries.count)
    for index in changed {
      let low = max(0, index - reach)
      let high = min(entries.count - 1, index + reach)
      for shown in low...high { visible[shown] = true }
    }
    var folded = 0
    func flushFold() {
      guard folded > 0 else { return }
      let text = pad + "… (" + DigitGrouping.grouped(folded) + " unchanged)"
      state.lines.append(Line(kind: .both, text: text))
      folded = 0
    }
    for (offset, entry) in entries.enumerated() {
      guard visible[offset] else {
        folded += 1
        continue
      }
      flushFold()
      let suffix = offset == entries.count - 1 ? "" : ","
      switch entry {
      case .same(let label, let value):
        emit(value, .both, label: label, indent: indent, suffix: suffix, &state)
      case .changed(let label, let components, let old, let new):
        walk(
          old, new, label: label, typeName: nil, indent: indent, suffix: suffix,
          at: path + components, &state)
      case .removed(let label, let components, let value):
        state.paths.append(TracePath(path + components))
        emit(value, .first, label: label, indent: indent, suffix: suffix, &state)
      case .inserted(let label, let components, let value):
        state.paths.append(TracePath(path + components))
        emit(value, .second, label: label, indent: indent, suffix: suffix, &state)
      }
    }
    flushFold()
  }

  /// The children of two containers, paired as the trace's own diff pairs them (so the paths
  /// shown are the changed paths the index holds); nil when the values must be shown whole.
  private func pairedChildren(_ old: TraceValue, _ new: TraceValue) -> [Entry]? {
    guard let children = TraceDiff.children(old, new) else { return nil }
    var container = old
    while case .reflected(_, let inner) = container { container = inner }
    let isEnum: Bool
    if case .enumCase = container { isEnum = true } else { isEnum = false }
    return children.map { child in
      let label = Self.label(child.components, inEnum: isEnum)
      switch child {
      case .same(_, let value): return .same(label, value)
      case .changed(let path, let old, let new): return .changed(label, path, old, new)
      case .removed(let path, let old): return .removed(label, path, old)
      case .inserted(let path, let new): return .inserted(label, path, new)
      }
    }
  }

  /// `key: `, `[id: 3]: `, `[2]: `. In an enum case (`case` or `case.label`), a label only for
  /// a labelled associated value: the others print in parentheses after the case.
  private static func label(_ components: [TracePath.Component], inEnum: Bool) -> String {
    switch components.last {
    case .key(let key)?:
      if inEnum {
        return components.count == 2 ? ValueDumper.label(key) : ""
      }
      return ValueDumper.fieldLabel(key)
    case .id(let id)?: return "[id: " + ValueDumper.scalarText(id) + "]: "
    case .index(let index)?: return "[\(index)]: "
    case nil: return ""
    }
  }
}
