// inspector-corruption-child: runs every inspector command in process, the way the
// `inspector` executable runs it, on every trace of a directory, for the row-level corruption
// test (InspectorKitTests/EndToEnd/RowCorruptionEndToEndTests). The test makes the damaged
// traces; a trap or a hang here ends this process, not the test, which then names the trace
// and the command from the last line printed.
//
//   inspector-corruption-child DIRECTORY
//
// Prints the commands first, `C<TAB>INDEX<TAB>ARGUMENT…` (TRACE stands for the trace's path),
// then for each trace and command `>` before the run and `=` after it:
//
//   > FILE INDEX
//   = FILE INDEX STATUS HASH       (HASH: FNV-1a of stdout, a zero byte and stderr)
//   ! FILE INDEX RULE              (a rule of the inspector's contract the run broke)
//
// and last `M MAX_RSS_KIB`. A run that spins ends the process by SIGPROF after 10 s of this
// process's CPU time, and one that blocks by SIGALRM after 120 s of wall time: the slowest
// variant's run (`export` of a megabyte action) takes about 1.3 s of CPU in a debug build, so
// a limit on wall time alone fired on a busy machine for a run that was only slow.

import Foundation
import InspectorKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every command, with the options whose code paths differ most (`export` writes what
/// `info --json`, `log --json` and `effects --json` write).
let commands: [[String]] = [
  ["info", "TRACE"], ["log", "TRACE"], ["log", "TRACE", "--json"],
  ["log", "TRACE", "--from", "5", "--to", "9", "--path", "todos"], ["show", "TRACE", "7"],
  ["diff", "TRACE", "2", "11", "--path", "todos", "--json"], ["tree", "TRACE"],
  ["effects", "TRACE", "--timeline"], ["replay", "TRACE"], ["export", "TRACE"],
  ["export", "TRACE", "--format", "perfetto"], ["testgen", "TRACE"],
  ["follow", "TRACE", "--from-start", "--wait", "0"],
]

/// Commands whose stdout must be one JSON document (or nothing).
func printsJSON(_ arguments: [String]) -> Bool {
  arguments.contains("--json") || arguments[0] == "export"
}

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: inspector-corruption-child DIRECTORY\n".utf8))
  exit(2)
}
let directory = URL(fileURLWithPath: CommandLine.arguments[1])
let traces = try FileManager.default.contentsOfDirectory(atPath: directory.path)
  .filter { $0.hasSuffix(".rewind") }.sorted()

var report = StandardStream.output
for (index, command) in commands.enumerated() {
  report.write("C\t\(index)\t" + command.joined(separator: "\t") + "\n")
}

/// `follow` on a trace whose writer never closes it polls until Ctrl-C: stop it after a few
/// polls instead.
let polls = Atomic<Int>(0)
let inspector = Inspector(
  terminal: FixedTerminal(width: 80),
  interruption: Interruption {
    polls.add(1, ordering: .relaxed).newValue > 4
  },
  open: { path throws(InspectorError) in try TraceFileSource(path: path) })

func fnv(_ text: String, into hash: inout UInt64) {
  var text = text
  text.withUTF8 { bytes in
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
  }
}

/// Whether the text holds the byte (a raw escape): Foundation's `contains` is slow on the
/// megabytes a damaged trace can hold.
func holds(_ text: String, _ byte: UInt8) -> Bool {
  var text = text
  return text.withUTF8 { $0.contains(byte) }
}

/// What a person reading a message must not be shown: SQL, SQLite's and Swift's vocabulary.
let jargon = [
  "SQLite error", "SELECT ", "while executing", "no such column", "no such table",
  "disk image", "DecodingError", "Swift.",
]

/// A run's limits (see the header); 0 and 0 clear them.
let cpuLimitSeconds = 10
let wallLimitSeconds: UInt32 = 120

func limitRun(cpuSeconds: Int, wallSeconds: UInt32) {
  var timer = itimerval(
    it_interval: timeval(tv_sec: 0, tv_usec: 0), it_value: timeval(tv_sec: cpuSeconds, tv_usec: 0))
  #if canImport(Glibc)
    setitimer(__itimer_which_t(ITIMER_PROF.rawValue), &timer, nil)
  #else
    setitimer(ITIMER_PROF, &timer, nil)
  #endif
  alarm(wallSeconds)
}

for trace in traces {
  let path = directory.appendingPathComponent(trace).path
  for (index, command) in commands.enumerated() {
    report.write("> \(trace) \(index)\n")
    report.flush()
    polls.store(0, ordering: .relaxed)
    limitRun(cpuSeconds: cpuLimitSeconds, wallSeconds: wallLimitSeconds)
    var out = ""
    var err = ""
    let status = inspector.run(command.map { $0 == "TRACE" ? path : $0 }, out: &out, err: &err)
    limitRun(cpuSeconds: 0, wallSeconds: 0)
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    fnv(out + "\0" + err, into: &hash)
    report.write("= \(trace) \(index) \(status) \(String(hash, radix: 16))\n")
    var broken: [String] = []
    if ![0, 1, 2].contains(status) { broken.append("status \(status)") }
    if status == 0, !err.isEmpty { broken.append("exit 0 with stderr \(err.debugDescription)") }
    if status != 0,
      !err.hasPrefix("inspector: ") || err.filter({ $0 == "\n" }).count != 1
        || !err.hasSuffix("\n")
    {
      broken.append("stderr is not one 'inspector: ' line: \(err.debugDescription)")
    }
    for word in jargon where err.contains(word) {
      broken.append("stderr holds '\(word)': \(err.debugDescription)")
    }
    if holds(out, 0x1B) || holds(err, 0x1B) { broken.append("a raw escape") }
    if printsJSON(command), !out.isEmpty,
      (try? JSONSerialization.jsonObject(with: Data(out.utf8), options: [.fragmentsAllowed]))
        == nil
    {
      broken.append("stdout is not one JSON document: \(out.suffix(200).debugDescription)")
    }
    for rule in broken { report.write("! \(trace) \(index) \(rule)\n") }
  }
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
report.write("M \(usage.ru_maxrss)\n")
report.flush()
