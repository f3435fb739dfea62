/// The arguments of one command, consumed front to back; every error names the command.
///
/// ```swift
/// var list = ArgumentList(command: "replay", arguments: ["todos", "t.rewind"])
/// try list.scenario()          // "todos"
/// try list.positional("FILE")  // "t.rewind"
/// try list.expectEnd()
/// ```
struct ArgumentList {
  let command: String
  private var arguments: ArraySlice<String>

  init(command: String, arguments: [String]) {
    self.command = command
    self.arguments = arguments[...]
  }

  /// The next argument, which must name a scenario.
  mutating func scenario() throws(UsageError) -> String {
    let name = try positional("SCENARIO")
    guard AnyScenario.named(name) != nil else {
      let names = AnyScenario.all.map(\.name).joined(separator: ", ")
      throw UsageError("\(command): unknown scenario '\(name)' (scenarios: \(names))")
    }
    return name
  }

  /// The next argument, which must not be an option.
  mutating func positional(_ placeholder: String) throws(UsageError) -> String {
    guard let argument = arguments.first, !argument.hasPrefix("-") else {
      if let option = arguments.first {
        throw UsageError("\(command): expected \(placeholder), got option '\(option)'")
      }
      throw UsageError("\(command): missing \(placeholder)")
    }
    arguments.removeFirst()
    return argument
  }

  /// Fails on any argument left.
  func expectEnd() throws(UsageError) {
    if let extra = arguments.first {
      throw UsageError("\(command): unexpected argument '\(extra)'")
    }
  }

  /// The remaining arguments as `--name value` pairs, each name among `allowed`, once, and
  /// flags (`--force`) among `flags`, without a value.
  mutating func options(_ allowed: [String], flags: [String] = []) throws(UsageError)
    -> Options
  {
    var values: [String: String] = [:]
    var given: Set<String> = []
    while let name = arguments.first {
      arguments.removeFirst()
      if flags.contains(name) {
        guard given.insert(name).inserted else {
          throw UsageError("\(command): \(name) given twice")
        }
        continue
      }
      guard allowed.contains(name) else {
        if name.hasPrefix("-") {
          throw UsageError("\(command): unknown option '\(name)'")
        }
        throw UsageError("\(command): unexpected argument '\(name)'")
      }
      guard let value = arguments.first, !value.hasPrefix("--") else {
        throw UsageError("\(command): \(name) needs a value")
      }
      arguments.removeFirst()
      guard values.updateValue(value, forKey: name) == nil else {
        throw UsageError("\(command): \(name) given twice")
      }
    }
    return Options(command: command, values: values, flags: given)
  }

  /// Parsed `--name value` pairs and flags.
  struct Options {
    let command: String
    let values: [String: String]
    let flags: Set<String>

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func required(_ name: String, placeholder: String) throws(UsageError) -> String {
      guard let value = values[name] else {
        throw UsageError("\(command): \(name) \(placeholder) is required")
      }
      return value
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
      guard let text = values[name] else { return nil }
      guard let value = Int(text), range.contains(value) else {
        throw UsageError(
          "\(command): \(name) must be a whole number from \(range.lowerBound) to "
            + "\(range.upperBound), got '\(text)'")
      }
      return value
    }

    func seed(_ name: String) throws(UsageError) -> UInt64? {
      guard let text = values[name] else { return nil }
      guard let value = UInt64(text) else {
        throw UsageError(
          "\(command): \(name) must be a whole number from 0 to \(UInt64.max), got '\(text)'")
      }
      return value
    }

    func seconds(_ name: String) throws(UsageError) -> Duration? {
      guard let text = values[name] else { return nil }
      guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
        throw UsageError(
          "\(command): \(name) must be a number of seconds above 0 and at most 86400, "
            + "got '\(text)'")
      }
      return .milliseconds(Int64((value * 1000).rounded()))
    }
  }
}
