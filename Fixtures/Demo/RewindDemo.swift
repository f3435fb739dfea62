import Foundation
import TraceKit
import TraceRecorder

/// `rewind-demo`: records scripted and live sessions of the sample features, and replays
/// their traces through the fixed reducers.
///
/// ```
/// $ rewind-demo record todos-buggy --out bug.rewind
/// Recorded 40 steps (26 user actions, seed 1) to bug.rewind
/// $ rewind-demo replay todos-buggy bug.rewind
/// Step 2 (move) diverged from the trace (1 step matched before it): …
/// ```
///
/// Exit status: 0 on success, 1 when a replay diverges or a recording fails, 2 for a command
/// line it cannot run or a trace it cannot read (one line on stderr).
@main
enum RewindDemo {
  static func main() async {
    let status = await run(Array(CommandLine.arguments.dropFirst()))
    exit(status)
  }

  @MainActor
  static func run(_ arguments: [String]) async -> Int32 {
    let command: DemoCommand
    do {
      command = try DemoCommand.parse(arguments)
    } catch {
      printError(error.description)
      return 2
    }
    switch command {
    case .help:
      print(DemoCommand.usage)
      return 0

    case .version:
      print(RewindVersion.line(program: "rewind-demo"))
      return 0

    case .list:
      let width = AnyScenario.all.map(\.name.count).max() ?? 0
      for scenario in AnyScenario.all {
        let padding = String(repeating: " ", count: width - scenario.name.count)
        print("\(scenario.name)\(padding)  \(scenario.summary)")
      }
      return 0

    case let .record(name, out, steps, seed, force):
      guard let scenario = AnyScenario.named(name) else { return 2 }
      do {
        try OutputFile.prepare(out, replacing: force)
        print(try await scenario.record(out, steps, seed))
        return 0
      } catch {
        printError("rewind-demo: record: \(error)")
        return error.exitStatus
      }

    case let .run(name, options):
      guard let scenario = AnyScenario.named(name) else { return 2 }
      let stop = StopSignal.install()
      do {
        if let out = options.out { try OutputFile.prepare(out, replacing: options.force) }
        print(try await scenario.run(options, stop))
        return 0
      } catch {
        printError("rewind-demo: run: \(error)")
        return error.exitStatus
      }

    case let .replay(name, trace, chaos, seed):
      guard let scenario = AnyScenario.named(name) else { return 2 }
      do {
        if let chaos {
          let report = try scenario.chaos(trace, seed, chaos)
          print(report)
          return report.isClean ? 0 : 1
        }
        let result = try scenario.replay(trace)
        print(result)
        if case .diverged = result { return 1 }
        return 0
      } catch {
        printError("rewind-demo: replay: \(error)")
        return error.exitStatus
      }
    }
  }

  static func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

extension DemoError {
  /// 2 for input the demo cannot use (an existing output, an unreadable trace), 1 for a
  /// session that failed while running.
  var exitStatus: Int32 {
    switch self {
    case .outputExists, .output, .replay, .configuration: 2
    case .recording, .stalled: 1
    }
  }
}
