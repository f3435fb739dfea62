// rewind-bench: the benchmarks of issue 7, run by tools/bench in release mode.
//   rewind-bench [--quick] [--json FILE] [--only PREFIX]... [--inspector PATH] [--keep]
//                [--case-time-limit SECONDS]
// Prints one line per case: name, value and unit, spread, baseline, ratio, target, met/MISSED.
// Exit status 0 when every case ran (slow or not), 1 when one could not run, 2 for bad usage.

import Foundation

let options: BenchOptions
do {
  options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  Output.error("rewind-bench: \(error)\n\(BenchOptions.usage)")
  exit(2)
}

if options.showsHelp {
  Output.line(BenchOptions.usage)
  exit(0)
}

let cases = AllCases.list.filter { options.selects($0.name) }
guard !cases.isEmpty else {
  Output.error("rewind-bench: no case name starts with \(options.only.joined(separator: ", "))")
  exit(2)
}

if let child = options.child {
  switch child.first {
  case "case":
    exit(CaseProcess.serve(Array(child.dropFirst()), options: options))
  case "memory":
    do {
      Output.line(try MemoryChild.run(Array(child.dropFirst())))
      exit(0)
    } catch {
      Output.error("rewind-bench child: \(error)")
      exit(1)
    }
  default:
    Output.error("rewind-bench child: unknown child '\(child)'")
    exit(2)
  }
}

let context: BenchContext
do {
  context = try BenchContext(options: options)
} catch {
  Output.error("rewind-bench: \(error)")
  exit(1)
}
let status = BenchRunner(cases: cases).run(context)
if options.keepsFiles {
  Output.line("rewind-bench: kept \(context.directory)")
} else {
  context.removeFiles()
}
exit(status)
