import Foundation

/// Runs each case in a process of its own, so that nothing one case leaves behind is measured
/// in the next: the effect tasks its sends started and never let run (a sample's synchronous
/// loop does not turn the main run loop, and the first case that waited for a child through
/// `Process` would run them during its timing), its threads, its heap.
///
/// The parent spawns `rewind-bench [--quick] [--inspector P] --scratch RUN --child case NAME
/// RESULT`; the case's process runs the case in `RUN/NAME` and writes its result, or why it
/// could not run, as JSON to `RESULT`.
///
/// ```swift
/// let result = try CaseProcess.run(SeekCase(), context)   // in a fresh process
/// result.name  // "trace.seek.1m"
/// ```
@MainActor
enum CaseProcess {
  /// What a case's process writes to its result file.
  private struct Outcome: Codable {
    var result: CaseResult?
    var error: String?
  }

  /// The parent's side: runs `benchCase` in a new process and reads what it measured.
  static func run(_ benchCase: any BenchCase, _ context: BenchContext) throws(BenchError)
    -> CaseResult
  {
    let resultPath = context.runDirectory + "/\(benchCase.name).result.json"
    var arguments = ["--inspector", context.inspectorPath, "--scratch", context.runDirectory]
    if context.options.quick { arguments.insert("--quick", at: 0) }
    arguments += ["--child", "case", benchCase.name, resultPath]
    defer { unlink(resultPath) }
    let status = try ProcessLauncher.inheriting(
      context.executablePath, arguments,
      timeLimit: context.options.caseTimeLimit ?? context.scale.caseTimeLimit)
    guard let data = FileManager.default.contents(atPath: resultPath) else {
      throw BenchError("its process ended with status \(status) and left no result")
    }
    let outcome: Outcome
    do {
      outcome = try decoder.decode(Outcome.self, from: data)
    } catch {
      throw BenchError("its process left an unreadable result at \(resultPath): \(error)")
    }
    if let error = outcome.error { throw BenchError(error) }
    guard let result = outcome.result, result.name == benchCase.name else {
      throw BenchError("its process left a result for another case at \(resultPath)")
    }
    return result
  }

  /// The case's side (`--child case NAME RESULT`): runs the named case and writes the outcome.
  /// Returns the exit status: 0 when the case ran, 1 when it could not.
  static func serve(_ arguments: [String], options: BenchOptions) -> Int32 {
    guard arguments.count == 2, let runDirectory = options.scratchDirectory else {
      Output.error("rewind-bench child: usage: --scratch DIR --child case NAME RESULT")
      return 2
    }
    let (name, resultPath) = (arguments[0], arguments[1])
    var outcome = Outcome()
    do {
      guard let benchCase = AllCases.list.first(where: { $0.name == name }) else {
        throw BenchError("no case is named '\(name)'")
      }
      let context = try BenchContext(
        options: options, runDirectory: runDirectory, caseName: name)
      outcome.result = try benchCase.run(context)
    } catch {
      outcome.error = "\(error)"
    }
    do {
      try encoder.encode(outcome).write(to: URL(fileURLWithPath: resultPath))
    } catch {
      Output.error("rewind-bench child: cannot write \(resultPath): \(error)")
      return 1
    }
    return outcome.error == nil ? 0 : 1
  }

  // A case's values can be NaN or infinite (a ratio over a zero baseline); JSON has neither.
  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }
}
