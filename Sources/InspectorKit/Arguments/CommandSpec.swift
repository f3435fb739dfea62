/// The shape of one command's command line: its positional arguments and options, and the help
/// text that explains them.
///
/// ```swift
/// let spec = CommandSpec.show
/// spec.usage  // inspector show TRACE STEP [--path P] [--max-items N] [--json]
/// ```
struct CommandSpec: Sendable {
  struct Positional: Sendable {
    var name: String
    var required: Bool
    var help: String
  }

  struct Option: Sendable {
    /// The long name with its dashes: `--from`.
    var name: String
    /// The placeholder of its value (`N`), or nil for a flag.
    var value: String?
    var help: String
  }

  var name: String
  var summary: String
  var positionals: [Positional]
  var options: [Option]
  var example: String
  /// More text after the options (e.g. the JSON shape of `export`).
  var details: String = ""

  var usage: String {
    var parts = ["inspector", name]
    for positional in positionals {
      parts.append(positional.required ? positional.name : "[\(positional.name)]")
    }
    for option in options {
      parts.append("[" + option.name + (option.value.map { " " + $0 } ?? "") + "]")
    }
    return parts.joined(separator: " ")
  }

  func option(named name: String) -> Option? {
    options.first { $0.name == name }
  }
}
