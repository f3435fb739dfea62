// The child process of TraceKit's multi-process tests: writes a synthetic trace and reports
// each commit on stdout ("committed <last step>"), so the parent knows what must survive.
//
//   trace-writer-child PATH STEPS FLUSH_EVERY [PAUSE_MILLISECONDS | wait]
//
// With `wait` the child reads one line from stdin after each commit before going on, so a
// test can interleave its reads with the child's commits exactly.
// After STEPS steps it closes the trace and prints "closed". The crash test kills it with
// SIGKILL at a random moment; the live-follow test reads the trace while it runs.

import Foundation
import TraceKit

/// Writes a line to stdout unbuffered: the parent acts on it while this process runs.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let steps = Int(arguments[2]), let flushEvery = Int(arguments[3]),
  flushEvery > 0
else {
  FileHandle.standardError.write(
    Data("usage: trace-writer-child PATH STEPS FLUSH_EVERY [PAUSE_MILLISECONDS]\n".utf8))
  exit(2)
}
let waitsForInput = arguments.count > 4 && arguments[4] == "wait"
let pause = arguments.count > 4 ? UInt32(arguments[4]) ?? 0 : 0

do {
  var trace = SyntheticTrace()
  let writer = try TraceWriter(
    path: arguments[1], metadata: SyntheticTrace.metadata, initialState: trace.state)
  say("committed 0")
  for step in 1...max(1, steps) {
    let (record, state) = trace.next()
    try writer.append(record, state: state)
    if step % 97 == 0 {
      let id = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", step))!
      try writer.effectStarted(EffectRecord(id: id, startedByStep: step, startNanos: 1))
    }
    if step % flushEvery == 0 {
      try writer.flush()
      say("committed \(step)")
      if pause > 0 { usleep(pause * 1_000) }
      if waitsForInput && readLine() == nil { break }
    }
  }
  try writer.close()
  say("closed")
} catch {
  FileHandle.standardError.write(Data("trace-writer-child: \(error)\n".utf8))
  exit(1)
}
