/// A command line that matched its command's spec: positionals in order, option values by name.
///
/// ```swift
/// let parsed = try ArgumentParser.parse(["log", "t.rewind", "--from", "5"])
/// parsed.arguments.integer("--from")  // 5
/// ```
struct ParsedArguments: Sendable {
  var command: String
  var positionals: [String]
  var values: [String: String]
  var flags: Set<String>

  func flag(_ name: String) -> Bool { flags.contains(name) }

  func value(_ name: String) -> String? { values[name] }

  /// A non-negative integer option, or nil when absent.
  func integer(_ name: String) throws(InspectorError) -> Int? {
    guard let text = values[name] else { return nil }
    return try Self.integer(text, for: name, in: command)
  }

  static func integer(
    _ text: String, for name: String, in command: String
  ) throws(InspectorError) -> Int {
    guard let number = Int(text), number >= 0 else {
      throw .usage(
        "invalid value '\(text)' for \(name): expected a non-negative integer", where: command)
    }
    return number
  }
}
