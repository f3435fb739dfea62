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

  /// The diff as lines, and the path of every change in order.
  package func diff(
    from old: TraceValue, to new: TraceValue, typeName: String? = nil
  ) -> (lines: [Line], paths: [TracePath]) {
    guard old != new else { return ([], []) }
    var state = Walk()
    walk(old, new, label: "", typeName: typeName, indent: 0, suffix: "", at: [], &state)
    return (state.lines, state.paths)
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

  /// The children of two containers of the same shape, aligned; nil when the values must be
  /// shown whole (different kinds, different enum cases, leaves).
  private func pairedChildren(_ old: TraceValue, _ new: TraceValue) -> [Entry]? {
    switch (old, new) {
    case (.object(let a), .object(let b)):
      return alignFields(a, b)
    case (.enumCase(let n, let a), .enumCase(let m, let b)) where n == m && !a.isEmpty:
      return alignFields(a, b, enumCase: n)
    case (.reflected(let t, let a), .reflected(let u, let b)) where t == u:
      if case .object(let fa) = a, case .object(let fb) = b {
        return alignFields(fa, fb)
      }
      return nil
    case (.array(let a), .array(let b)):
      if let ids = ValueDumper.identifiers(a), let newIDs = ValueDumper.identifiers(b) {
        return alignIdentified(a, ids, b, newIDs)
      }
      return alignElements(a, b)
    default:
      return nil
    }
  }

  /// Fields matched by key. Inside an enum case a path names the case, then the field, or
  /// only the case when its single value is unlabelled (`mode.loaded`), as `TracePath` does.
  private func alignFields(
    _ old: [TraceField], _ new: [TraceField], enumCase: String? = nil
  ) -> [Entry] {
    let label = enumCase == nil ? ValueDumper.fieldLabel : ValueDumper.label
    let entered = old.count == 1 && new.count == 1 && old[0].key == "_0" && new[0].key == "_0"
    func at(_ key: String) -> [TracePath.Component] {
      guard let enumCase else { return [.key(key)] }
      return entered ? [.key(enumCase)] : [.key(enumCase), .key(key)]
    }
    var newByKey: [String: TraceValue] = [:]
    for field in new { newByKey[field.key] = field.value }
    var oldKeys = Set<String>()
    var entries: [Entry] = []
    for field in old {
      oldKeys.insert(field.key)
      if let value = newByKey[field.key] {
        entries.append(
          value == field.value
            ? .same(label(field.key), value)
            : .changed(label(field.key), at(field.key), field.value, value))
      } else {
        entries.append(.removed(label(field.key), at(field.key), field.value))
      }
    }
    for field in new where !oldKeys.contains(field.key) {
      entries.append(.inserted(label(field.key), at(field.key), field.value))
    }
    return entries
  }

  /// Identified elements matched by id, as `TraceDiff` matches them: the longest run of
  /// survivors that kept their relative order stays in place (diffed there); an element that
  /// moved is shown removed where it was and inserted where it is now. Entries follow the new
  /// order; between two staying elements, what left comes before what arrived.
  private func alignIdentified(
    _ old: [TraceValue], _ oldIDs: [TraceValue], _ new: [TraceValue], _ newIDs: [TraceValue]
  ) -> [Entry] {
    func label(_ id: TraceValue) -> String { "[id: " + ValueDumper.scalarText(id) + "]: " }
    var newIndex: [TraceValue: Int] = [:]
    for (index, id) in newIDs.enumerated() { newIndex[id] = index }
    var survivorOld: [Int] = []
    var survivorNew: [Int] = []
    for (index, id) in oldIDs.enumerated() {
      if let match = newIndex[id] {
        survivorOld.append(index)
        survivorNew.append(match)
      }
    }
    var stayingOld = [Int](repeating: -1, count: new.count)
    for k in Differ.longestIncreasingSubsequence(survivorNew) {
      stayingOld[survivorNew[k]] = survivorOld[k]
    }
    var entries: [Entry] = []
    var nextOld = 0
    func removeOld(before end: Int) {
      while nextOld < end {
        // Every old element before a staying one either stays earlier or leaves here.
        entries.append(.removed(label(oldIDs[nextOld]), [.id(oldIDs[nextOld])], old[nextOld]))
        nextOld += 1
      }
    }
    // For each new index, the old index of the next staying element (old.count if none).
    var nextStayingOld = [Int](repeating: old.count, count: new.count + 1)
    for index in new.indices.reversed() {
      nextStayingOld[index] =
        stayingOld[index] >= 0 ? stayingOld[index] : nextStayingOld[index + 1]
    }
    for index in new.indices {
      let from = stayingOld[index]
      guard from >= 0 else {
        removeOld(before: nextStayingOld[index])
        entries.append(.inserted(label(newIDs[index]), [.index(index)], new[index]))
        continue
      }
      removeOld(before: from)
      nextOld = from + 1
      let id = newIDs[index]
      entries.append(
        old[from] == new[index]
          ? .same(label(id), new[index])
          : .changed(label(id), [.id(id)], old[from], new[index]))
    }
    removeOld(before: old.count)
    return entries
  }

  /// Plain arrays: common ends kept, the middle aligned by a longest common subsequence when
  /// it is small enough, else position by position.
  private func alignElements(_ old: [TraceValue], _ new: [TraceValue]) -> [Entry] {
    func label(_ index: Int) -> String { "[\(index)]: " }
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    var entries: [Entry] = (0..<prefix).map { .same(label($0), new[$0]) }
    let oldMiddle = Array(old[prefix..<(old.count - suffix)])
    let newMiddle = Array(new[prefix..<(new.count - suffix)])
    let pairs =
      oldMiddle.count * newMiddle.count <= 250_000
      ? commonSubsequence(oldMiddle, newMiddle) : []
    var i = 0
    var j = 0
    func gap(upTo oldEnd: Int, _ newEnd: Int) {
      while i < oldEnd, j < newEnd {
        entries.append(
          .changed(label(prefix + j), [.index(prefix + j)], oldMiddle[i], newMiddle[j]))
        i += 1
        j += 1
      }
      while i < oldEnd {
        entries.append(.removed(label(prefix + i), [.index(prefix + i)], oldMiddle[i]))
        i += 1
      }
      while j < newEnd {
        entries.append(.inserted(label(prefix + j), [.index(prefix + j)], newMiddle[j]))
        j += 1
      }
    }
    for (oldIndex, newIndex) in pairs {
      gap(upTo: oldIndex, newIndex)
      entries.append(.same(label(prefix + newIndex), newMiddle[newIndex]))
      i += 1
      j += 1
    }
    gap(upTo: oldMiddle.count, newMiddle.count)
    let tail = new.count - suffix
    entries += (tail..<new.count).map { .same(label($0), new[$0]) }
    return entries
  }

  private func commonSubsequence(_ a: [TraceValue], _ b: [TraceValue]) -> [(Int, Int)] {
    guard !a.isEmpty, !b.isEmpty else { return [] }
    let columns = b.count + 1
    var lengths = [Int](repeating: 0, count: (a.count + 1) * columns)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i * columns + j] =
          a[i] == b[j]
          ? lengths[(i + 1) * columns + j + 1] + 1
          : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
      }
    }
    var pairs: [(Int, Int)] = []
    var i = 0
    var j = 0
    while i < a.count, j < b.count {
      if a[i] == b[j] {
        pairs.append((i, j))
        i += 1
        j += 1
      } else if lengths[(i + 1) * columns + j] >= lengths[i * columns + j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return pairs
  }
}
