import TraceKit

/// The changed paths of a step as one line's worth of text: paths that differ only in one
/// array position are written once, with their positions as ranges, so a step that touched
/// fourteen elements of an array reads as one path instead of fourteen.
///
/// ```swift
/// ChangedPathsText.text(["month", "days[2]", "days[1]", "days[0]", "days[7]", "isLoading"])
/// // "month, days[0…2, 7], isLoading"
/// ```
///
/// Only a path's last position is folded (`rows[1].tags[0]` and `rows[1].tags[1]` become
/// `rows[1].tags[0…1]`); identified elements (`rows[id: …]`) are kept one by one, since their
/// ids have no order. Groups keep the order in which their first path came. `log --json` and
/// `export` keep every path as recorded.
enum ChangedPathsText {
  static func text(_ paths: [String]) -> String {
    guard paths.count > 1, paths.contains(where: { position(in: $0) != nil }) else {
      return paths.map(EscapedText.plain).joined(separator: ", ")
    }
    var order: [String] = []
    var groups: [String: (prefix: Substring, suffix: Substring, indices: [Int])] = [:]
    for path in paths {
      guard let found = position(in: path) else {
        order.append(path)
        continue
      }
      let key = String(found.prefix) + "[]" + found.suffix
      if groups[key] == nil {
        groups[key] = (found.prefix, found.suffix, [])
        order.append(key)
      }
      groups[key]!.indices.append(found.index)
    }
    return order.map { key in
      guard let group = groups[key] else { return EscapedText.plain(key) }
      let text = group.prefix + "[" + ranges(group.indices) + "]" + group.suffix
      return EscapedText.plain(String(text))
    }.joined(separator: ", ")
  }

  /// The last `[N]` of a path outside quoted keys: what comes before it, the position and
  /// what comes after it.
  static func position(in path: String) -> (prefix: Substring, index: Int, suffix: Substring)? {
    guard path.utf8.contains(UInt8(ascii: "[")) else { return nil }
    let bytes = Array(path.utf8)
    var found: (open: Int, close: Int, index: Int)?
    var inQuotes = false
    var at = 0
    while at < bytes.count {
      let byte = bytes[at]
      if inQuotes {
        if byte == UInt8(ascii: "\\") {
          at += 2
          continue
        }
        if byte == UInt8(ascii: "\"") { inQuotes = false }
      } else if byte == UInt8(ascii: "\"") {
        inQuotes = true
      } else if byte == UInt8(ascii: "[") {
        var close = at + 1
        var value = 0
        while close < bytes.count, close - at <= 18,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[close])
        {
          value = value * 10 + Int(bytes[close] - UInt8(ascii: "0"))
          close += 1
        }
        if close > at + 1, close < bytes.count, bytes[close] == UInt8(ascii: "]") {
          found = (at, close, value)
          at = close
        }
      }
      at += 1
    }
    guard let found else { return nil }
    let utf8 = path.utf8
    let open = utf8.index(utf8.startIndex, offsetBy: found.open)
    let close = utf8.index(utf8.startIndex, offsetBy: found.close)
    return (path[..<open], found.index, path[utf8.index(after: close)...])
  }

  /// Sorted positions as runs: `[0, 1, 2, 7]` → `0…2, 7`.
  static func ranges(_ indices: [Int]) -> String {
    let sorted = Set(indices).sorted()
    var parts: [String] = []
    var first = sorted[0]
    var last = first
    for index in sorted.dropFirst() {
      if index == last + 1 {
        last = index
        continue
      }
      parts.append(first == last ? "\(first)" : "\(first)…\(last)")
      first = index
      last = index
    }
    parts.append(first == last ? "\(first)" : "\(first)…\(last)")
    return parts.joined(separator: ", ")
  }
}
