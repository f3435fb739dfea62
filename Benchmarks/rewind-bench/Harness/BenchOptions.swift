/// The command line of `rewind-bench`.
///
/// ```text
/// rewind-bench [--quick] [--json FILE] [--only PREFIX]... [--inspector PATH] [--keep]
///              [--case-time-limit SECONDS]
/// rewind-bench --scratch DIR --child case NAME FILE  (internal: one case in its own process)
/// rewind-bench --child memory MODE STEPS FILE       (internal: the memory case's child)
/// ```
struct BenchOptions: Sendable {
  var quick = false
  var jsonPath: String?
  /// Case name prefixes to run; empty runs every case.
  var only: [String] = []
  var inspectorPath: String?
  /// Keep the scratch directory (its traces) for profiling instead of removing it.
  var keepsFiles = false
  /// Seconds a case's process may run before it is stopped (default: the scale's).
  var caseTimeLimit: Double?
  /// Internal: the run's scratch directory, made by the parent process (a case's process
  /// shares the long traces in it).
  var scratchDirectory: String?
  /// Internal: run as a child process (one case, or a case's own child), with these arguments.
  var child: [String]?
  var showsHelp = false

  static let usage = """
    usage: rewind-bench [--quick] [--json FILE] [--only PREFIX]... [--inspector PATH] [--keep]
                        [--case-time-limit SECONDS]
      --quick           small sizes and few repetitions (a smoke run, under a minute)
      --json FILE       also write the results as a JSON array, one object per case
      --only PREFIX     run only the cases whose name starts with PREFIX (repeatable)
      --inspector PATH  the inspector binary (default: next to rewind-bench)
      --keep            keep the scratch directory and its traces (to profile them)
      --case-time-limit SECONDS
                        stop a case still running after SECONDS and report it as not run
                        (default 1200, 300 with --quick)
    """

  init(arguments: [String]) throws(BenchError) {
    var index = 0
    func value(after option: String) throws(BenchError) -> String {
      index += 1
      guard index < arguments.count else { throw BenchError("\(option) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": showsHelp = true
      case "--quick": quick = true
      case "--keep": keepsFiles = true
      case "--json": jsonPath = try value(after: argument)
      case "--only": only.append(try value(after: argument))
      case "--inspector": inspectorPath = try value(after: argument)
      case "--scratch": scratchDirectory = try value(after: argument)
      case "--case-time-limit":
        let text = try value(after: argument)
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
          throw BenchError("--case-time-limit needs a number of seconds above 0, not '\(text)'")
        }
        caseTimeLimit = seconds
      case "--child":
        child = Array(arguments[(index + 1)...])
        return
      default: throw BenchError("unknown argument '\(argument)'")
      }
      index += 1
    }
  }

  func selects(_ name: String) -> Bool {
    only.isEmpty || only.contains { name.hasPrefix($0) }
  }
}
