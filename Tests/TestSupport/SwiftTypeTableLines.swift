import TraceKit

extension SwiftTypeEntry {
  /// The entry as the tests compare it: pattern, type, kind, then what is set of optional,
  /// cases, raw values and key type.
  ///
  /// ```swift
  /// SwiftTypeEntry.lines(table.state)
  /// // ["sort: App.Sort enum cases recent,title raw recent=recent,title=title", …]
  /// ```
  public static func lines(_ entries: [String: SwiftTypeEntry]) -> [String] {
    entries.keys.sorted().map { pattern in
      let entry = entries[pattern]!
      var text = "\(pattern): \(entry.type) \(entry.kind.rawValue)"
      if entry.optional == true { text += " optional" }
      if let cases = entry.cases { text += " cases " + cases.joined(separator: ",") }
      if let raw = entry.rawValues {
        text += " raw " + raw.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
          .joined(separator: ",")
      }
      if let key = entry.keyType { text += " key \(key)" }
      return text
    }
  }
}
