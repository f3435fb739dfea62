// inspector-test-writer: writes the inspector's deterministic sample session to a trace file,
// for the end-to-end tests (including `follow`, with a delay between steps) and benchmarks.
//
//   inspector-test-writer PATH [--steps N] [--delay-ms D] [--wrong-hash STEP]
//                              [--keyframe-interval N] [--drop STEP] [--increment N]
//                              [--effect-every N] [--no-close]
//
// --drop STEP leaves the step out, as a recorder that had to drop it would: a gap.
// --increment N makes each counter increment add N: the same actions, other states.
// --effect-every N adds an effect started by every Nth step, running 30 µs (a long trace full
// of effects, for the memory of the commands that read every effect).

import Foundation
import TraceKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("inspector-test-writer: " + message + "\n").utf8))
  exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first, !path.hasPrefix("-") else {
  fail(
    "usage: inspector-test-writer PATH [--steps N] [--delay-ms D] [--wrong-hash STEP] "
      + "[--keyframe-interval N] [--drop STEP] [--increment N] [--effect-every N] "
      + "[--no-close]")
}
arguments.removeFirst()
var steps = 12
var delayMillis = 0
var wrongHashStep: Int?
var droppedSteps: Set<Int> = []
var increment: Int64 = 1
var effectEvery = 0
var metadata = SampleSession.metadata
var close = true
while !arguments.isEmpty {
  let option = arguments.removeFirst()
  if option == "--no-close" {
    close = false
    continue
  }
  guard !arguments.isEmpty, let value = Int(arguments.removeFirst()), value >= 0 else {
    fail("option \(option) needs a non-negative integer")
  }
  switch option {
  case "--steps": steps = value
  case "--delay-ms": delayMillis = value
  case "--wrong-hash": wrongHashStep = value
  case "--keyframe-interval": metadata.keyframeInterval = value
  case "--drop": droppedSteps.insert(value)
  case "--increment": increment = Int64(value)
  case "--effect-every": effectEvery = value
  default: fail("unknown option \(option)")
  }
}

do throws(TraceError) {
  var session = SampleSession()
  session.increment = increment
  let writer = try TraceWriter(
    path: path, metadata: metadata, initialState: session.state,
    wallTime: 1_780_000_000)
  try writer.writeTree(SampleSession.tree)
  try writer.flush()
  var lastWritten = 0
  for _ in 0..<steps {
    var (record, state, effects) = session.next()
    if record.step == wrongHashStep { record.stateHash ^= 0xDEAD_BEEF }
    if droppedSteps.contains(record.step) { continue }
    try writer.append(record, state: state)
    lastWritten = record.step
    for event in effects {
      switch event {
      case .started(let effect): try writer.effectStarted(effect)
      case .sent(let id): try writer.effectSent(id: id, step: record.step)
      case .ended(let id, let outcome):
        try writer.effectEnded(
          id: id, endNanos: record.monotonicNanos + 50_000, outcome: outcome)
      }
    }
    if effectEvery > 0, record.step.isMultiple(of: effectEvery) {
      let id = UUID(uuidString: String(format: "EFFE0000-0000-4000-8000-%012lX", record.step))!
      try writer.effectStarted(
        EffectRecord(
          id: id, startedByStep: record.step, cancelID: "bulk",
          startNanos: record.monotonicNanos + 10_000))
      try writer.effectEnded(
        id: id, endNanos: record.monotonicNanos + 40_000, outcome: .finished)
    }
    if delayMillis > 0 {
      try writer.flush()
      usleep(UInt32(delayMillis) * 1000)
    }
  }
  // Steps dropped at the end are a gap the recorder records when it finishes.
  if steps > lastWritten {
    try writer.appendGap(afterStep: lastWritten, dropped: steps - lastWritten)
  }
  if close { try writer.close() } else { try writer.flush() }
} catch {
  fail(error.description)
}
