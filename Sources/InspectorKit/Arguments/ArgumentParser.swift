import TraceKit

/// A small, strict command-line parser: `inspector COMMAND TRACE [options]`. Anything it does not
/// know is an error naming the culprit: an unknown command or option, an option without its
/// value, a missing or extra argument.
///
/// ```swift
/// try ArgumentParser.parse(["log", "t.rewind", "--form", "1"])
/// // throws: inspector: unknown option '--form' (log)
/// ```
enum ArgumentParser {
  enum Invocation: Sendable {
    case help(String)
    case run(ParsedArguments)
  }

  static func parse(_ arguments: [String]) throws(InspectorError) -> Invocation {
    guard let first = arguments.first else {
      throw .usage("missing command; see 'inspector --help'", where: "inspector")
    }
    if first == "--version" {
      guard arguments.count == 1 else {
        throw .usage("unexpected argument '\(arguments[1])'", where: "inspector --version")
      }
      return .help(RewindVersion.line(program: "inspector") + "\n")
    }
    if first == "--help" || first == "-h" || first == "help" {
      if first == "help", arguments.count > 1 {
        guard let spec = Commands.spec(named: arguments[1]) else {
          throw .usage("unknown command '\(arguments[1])'", where: "inspector help")
        }
        return .help(HelpText.command(spec))
      }
      return .help(HelpText.tool)
    }
    if first.hasPrefix("-") {
      throw .usage("unknown option '\(first)'; a command comes first", where: "inspector")
    }
    guard let spec = Commands.spec(named: first) else {
      throw .usage("unknown command '\(first)'; see 'inspector --help'", where: "inspector")
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      return .help(HelpText.command(spec))
    }
    return .run(try parse(rest, as: spec))
  }

  static func parse(_ arguments: [String], as spec: CommandSpec) throws(InspectorError)
    -> ParsedArguments
  {
    var parsed = ParsedArguments(command: spec.name, positionals: [], values: [:], flags: [])
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("-"), argument != "-", !isNegativeNumber(argument)
      else {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = spec.option(named: name) else {
        throw .usage("unknown option '\(name)'", where: spec.name)
      }
      if parsed.values[name] != nil || parsed.flags.contains(name) {
        throw .usage("option '\(name)' given more than once", where: spec.name)
      }
      guard let placeholder = option.value else {
        if inlineValue != nil {
          throw .usage("option '\(name)' takes no value", where: spec.name)
        }
        parsed.flags.insert(name)
        continue
      }
      if let inlineValue {
        parsed.values[name] = inlineValue
      } else if index < arguments.count, !arguments[index].hasPrefix("--") {
        parsed.values[name] = arguments[index]
        index += 1
      } else {
        throw .usage("missing value \(placeholder) for option '\(name)'", where: spec.name)
      }
    }
    let required = spec.positionals.filter(\.required).count
    if parsed.positionals.count < required {
      let missing = spec.positionals[parsed.positionals.count]
      throw .usage("missing argument \(missing.name)", where: spec.name)
    }
    if parsed.positionals.count > spec.positionals.count {
      let extra = parsed.positionals[spec.positionals.count]
      throw .usage("unexpected argument '\(extra)'", where: spec.name)
    }
    return parsed
  }

  /// `-3` is a (bad) step number to report as such, not an unknown option.
  private static func isNegativeNumber(_ text: String) -> Bool {
    text.count > 1 && text.dropFirst().allSatisfy(\.isNumber)
  }
}
