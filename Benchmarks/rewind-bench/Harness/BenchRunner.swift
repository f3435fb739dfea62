import Foundation

/// Runs the cases in order, each in a process of its own (`CaseProcess`), prints one line per
/// case as it finishes, and writes the JSON report. A slow case is a result; only a case that
/// could not run makes the exit status non-zero.
@MainActor
struct BenchRunner {
  var cases: [any BenchCase]

  /// Returns the exit status: 0 when every case ran, 1 otherwise.
  func run(_ context: BenchContext) -> Int32 {
    var entries: [JSONReport.Entry] = []
    var failed = 0
    let mode = context.options.quick ? "quick" : "full"
    Output.line("rewind-bench: \(cases.count) cases, \(mode) run, scratch \(context.directory)")
    Output.line("rewind-bench: \(MachineInfo.summary)")
    for benchCase in cases {
      do {
        let result = try CaseProcess.run(benchCase, context)
        Output.line(ReportLine.text(result))
        entries.append(JSONReport.entry(result))
      } catch {
        failed += 1
        Output.line(ReportLine.failure(name: benchCase.name, error: error))
        entries.append(
          JSONReport.failure(name: benchCase.name, target: benchCase.target, error: error))
      }
    }
    let met = entries.filter { $0.met == true }.count
    Output.line("rewind-bench: \(met) of \(cases.count) targets met, \(failed) could not run")
    if let path = context.options.jsonPath {
      do {
        try JSONReport.write(entries, to: path)
      } catch {
        Output.error("rewind-bench: \(error)")
        return 1
      }
    }
    return failed == 0 ? 0 : 1
  }
}
