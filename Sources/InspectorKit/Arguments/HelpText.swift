/// The `--help` texts, built from the command specs so they never drift from the parser.
///
/// ```swift
/// print(HelpText.command(Commands.tree))
/// // USAGE: inspector tree TRACE [--json]
/// // …
/// ```
enum HelpText {
  static var tool: String {
    var out = """
      inspector: read, replay, diff, follow and export Rewind traces; watch and steer
      running apps.

      USAGE: inspector COMMAND TRACE [options]
             inspector COMMAND PID|NAME [options]   (a running app: ps lists them)

      COMMANDS:

      """
    let width = Commands.all.map(\.name.count).max() ?? 0
    for spec in Commands.all {
      out += "  " + padded(spec.name, width) + "  " + spec.summary + "\n"
    }
    out += """

      Output goes to stdout, messages to stderr. Colour only on a terminal, without NO_COLOR
      and with a TERM other than 'dumb'. 'inspector --version' prints the version and the
      trace format versions this inspector reads.
      Exit status: 0 success, 1 a failed replay check or a command the app refused, 2 bad
      usage, an unreadable trace or an app that cannot be reached.
      See 'inspector COMMAND --help' for a command's options.

      EXAMPLE:
        inspector log bug.rewind --grep 'counter\\.' --limit 10

      """
    return out
  }

  static func command(_ spec: CommandSpec) -> String {
    var out = "inspector \(spec.name): \(spec.summary)\n\nUSAGE: \(spec.usage)\n\nARGUMENTS:\n"
    let names =
      spec.positionals.map(\.name)
      + spec.options.map { option in
        option.name + (option.value.map { " " + $0 } ?? "")
      }
    let width = names.map(\.count).max() ?? 0
    for positional in spec.positionals {
      out += "  " + padded(positional.name, width) + "  " + positional.help + "\n"
    }
    if !spec.options.isEmpty {
      out += "\nOPTIONS:\n"
      for option in spec.options {
        let name = option.name + (option.value.map { " " + $0 } ?? "")
        out += "  " + padded(name, width) + "  " + option.help + "\n"
      }
    }
    out += "  " + padded("--help", width) + "  show this help\n"
    if !spec.details.isEmpty {
      out += "\n" + spec.details + "\n"
    }
    out += "\nEXAMPLE:\n  " + spec.example + "\n"
    return out
  }

  static func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
