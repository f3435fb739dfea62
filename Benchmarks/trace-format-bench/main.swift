// Measures the trace container on a synthetic counter trace (release mode):
//   swift build -c release --product trace-format-bench
//   .build/release/trace-format-bench [steps] [directory]
// Prints write throughput, file size, compression ratio, open/info time and seek times.
//
//   .build/release/trace-format-bench --write FILE [steps]   writes a synthetic trace and keeps it
//   .build/release/trace-format-bench --replay FILE          state(at:) of every step in order
//   .build/release/trace-format-bench --probe FILE STEP      what the inspector's info, log
//     --from, show STEP and diff STEP read, as one process (time it with `time`)

import Foundation
import TraceKit

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time of this thread (user + system): on a loaded machine wall time says little.
func cpuNow() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

func milliseconds(_ nanos: UInt64) -> String {
  String(format: "%.3f ms", Double(nanos) / 1e6)
}

let arguments = CommandLine.arguments

if arguments.count >= 3, arguments[1] == "--write" {
  do {
    var trace = SyntheticTrace()
    let writer = try TraceWriter(
      path: arguments[2], metadata: SyntheticTrace.metadata, initialState: trace.state,
      wallTime: SyntheticTrace.startWallTime)
    let steps = arguments.count > 3 ? Int(arguments[3]) ?? 1_000_000 : 1_000_000
    for _ in 0..<steps {
      let (record, state) = trace.next()
      try writer.append(record, state: state)
    }
    try writer.close()
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("trace-format-bench: \(error)\n".utf8))
    exit(1)
  }
}

if arguments.count >= 3, arguments[1] == "--replay" {
  do {
    let reader = try TraceReader(path: arguments[2])
    let last = try reader.lastStep()
    let start = cpuNow()
    for step in 0...last { _ = try reader.state(at: step) }
    print("replay: \(last + 1) steps, \(milliseconds(cpuNow() - start)) CPU")
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("trace-format-bench: \(error)\n".utf8))
    exit(1)
  }
}

if arguments.count >= 4, arguments[1] == "--probe", let step = Int(arguments[3]) {
  do {
    let reader = try TraceReader(path: arguments[2])
    let info = try reader.info()
    let tail = try reader.rows(from: info.stepCount - 9, to: info.stepCount)
    let shown = try reader.state(at: step)
    let before = try reader.state(at: step - 1)
    let changes = try reader.changes(at: step)
    print("steps \(info.stepCount), tail \(tail.count) rows, state \(shown.jsonString),"
      + " previous \(before.jsonString), \(changes.count) changes")
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("trace-format-bench: \(error)\n".utf8))
    exit(1)
  }
}
let stepCount = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let directory = arguments.count > 2 ? arguments[2] : NSTemporaryDirectory()
let path = (directory as NSString).appendingPathComponent("bench-\(getpid()).rewind")
defer {
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

do {
  var trace = SyntheticTrace()
  let writer = try TraceWriter(
    path: path, metadata: SyntheticTrace.metadata, initialState: trace.state,
      wallTime: SyntheticTrace.startWallTime)
  // Records are generated in batches outside the timed region: the writer's cost is measured,
  // not the synthetic generator's (which hashes every state).
  let batchSize = 10_000
  var batch: [(StepRecord, TraceValue)] = []
  batch.reserveCapacity(batchSize)
  var writeNanos: UInt64 = 0
  var writeCPU: UInt64 = 0
  var written = 0
  while written < stepCount {
    batch.removeAll(keepingCapacity: true)
    for _ in 0..<min(batchSize, stepCount - written) { batch.append(trace.next()) }
    let start = now()
    let cpuStart = cpuNow()
    for index in batch.indices { try writer.append(batch[index].0, state: batch[index].1) }
    try writer.flush()
    writeCPU += cpuNow() - cpuStart
    writeNanos += now() - start
    written += batch.count
  }
  let closeStart = now()
  try writer.close()
  let closeNanos = now() - closeStart
  let rate = Double(written) / (Double(writeNanos) / 1e9)
  let cpuRate = Double(written) / (Double(writeCPU) / 1e9)
  print("write: \(written) steps in \(milliseconds(writeNanos)) = \(Int(rate)) steps/s wall;"
    + " CPU \(milliseconds(writeCPU)) = \(Int(cpuRate)) steps per CPU-second"
    + " (flush every \(batchSize)); close \(milliseconds(closeNanos))")

  let openStart = now()
  let reader = try TraceReader(path: path)
  let info = try reader.info()
  let openNanos = now() - openStart
  print("file: \(info.fileSize) bytes (\(info.fileSize / max(1, info.stepCount + 1)) B/step),"
    + " payload \(info.payloadRawBytes) -> \(info.payloadBytes) bytes,"
    + " ratio \(String(format: "%.2f", info.compressionRatio)),"
    + " \(info.chunkCount) chunks, \(info.keyframeCount) keyframes")
  print("open + info: \(milliseconds(openNanos))")

  let last = info.stepCount
  var start = now()
  let tail = try reader.rows(from: last - 9, to: last)
  print("rows(from: last-9): \(tail.count) rows in \(milliseconds(now() - start))")

  var random = SystemRandomNumberGenerator()
  var seeks: [UInt64] = []
  var seekCPU: [UInt64] = []
  for _ in 0..<1_000 {
    let fresh = try TraceReader(path: path)  // no cached chunk or state
    let step = Int.random(in: 0...last, using: &random)
    start = now()
    let cpuStart = cpuNow()
    _ = try fresh.state(at: step)
    seekCPU.append(cpuNow() - cpuStart)
    seeks.append(now() - start)
  }
  seeks.sort()
  seekCPU.sort()
  let mean = seeks.reduce(0, +) / UInt64(seeks.count)
  print("state(at: random) cold, 1000 seeks: median \(milliseconds(seeks[500])),"
    + " mean \(milliseconds(mean)), p99 \(milliseconds(seeks[990])),"
    + " max \(milliseconds(seeks[999])); CPU median \(milliseconds(seekCPU[500]))")

  start = now()
  var cpuStart = cpuNow()
  let first = 500_000 % (last + 1)
  for step in first..<min(last + 1, first + 10_000) {
    _ = try reader.state(at: step)
  }
  print("state(at:) sequential, 10000 steps: \(milliseconds(now() - start)) wall,"
    + " \(milliseconds(cpuNow() - cpuStart)) CPU")
  // What the inspector's `--path` and `--grep` filters ask: by changed path, by action
  // (prefix through the filter, regular expression over every row).
  for (label, filter) in [
    ("changedPath isLoading", StepFilter(changedPath: "isLoading")),
    ("actionPrefix loadingChanged", StepFilter(actionPrefix: "loadingChanged")),
    ("origin user, steps 400000...400999", StepFilter(from: 400_000, to: 400_999, origin: .user)),
  ] {
    let filterReader = try TraceReader(path: path)
    start = now()
    cpuStart = cpuNow()
    let matched = try filterReader.rows(matching: filter)
    print("rows(matching: \(label)): \(matched.count) rows in \(milliseconds(now() - start))"
      + " wall, \(milliseconds(cpuNow() - cpuStart)) CPU")
  }
  let pattern = try Regex("^decrement")
  let scanReader = try TraceReader(path: path)
  start = now()
  cpuStart = cpuNow()
  var grepped = 0
  try scanReader.forEachRow(from: 0, to: .max) { row in
    if row.actionPath.contains(pattern) { grepped += 1 }
    return true
  }
  print("forEachRow, every row, action regex ^decrement: \(grepped) rows in"
    + " \(milliseconds(now() - start)) wall, \(milliseconds(cpuNow() - cpuStart)) CPU")

  let replayReader = try TraceReader(path: path)
  start = now()
  cpuStart = cpuNow()
  for step in 0...last { _ = try replayReader.state(at: step) }
  print("replay: state(at:) of all \(last + 1) steps in order: \(milliseconds(now() - start))"
    + " wall, \(milliseconds(cpuNow() - cpuStart)) CPU")

  start = now()
  let middle = last / 2
  _ = try reader.action(at: middle)
  _ = try reader.changes(at: middle)
  print("action + changes at \(middle) (warm reader): \(milliseconds(now() - start))")
} catch {
  FileHandle.standardError.write(Data("trace-format-bench: \(error)\n".utf8))
  exit(1)
}
