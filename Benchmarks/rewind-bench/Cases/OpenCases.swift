import Foundation

/// What the `open.*` cases share: the real `inspector open` on a pseudo-terminal of 120×40.
enum OpenRun {
  static let width = 120
  static let height = 40
  /// The end of the status line, the last row ncurses draws in a frame.
  static let frameEnd = "q quit"
  /// Output quiet for this long ends a frame's burst (ncurses sends a frame in one go; the
  /// view's idle work redraws at most every 150 ms).
  static let burstQuiet: UInt64 = 4_000_000
  /// Quiet for this long before a key: no idle redraw is pending.
  static let settleQuiet: UInt64 = 40_000_000
  static let idleWorkQuiet: UInt64 = 250_000_000

  static func start(_ context: BenchContext, trace: String) throws(BenchError) -> PseudoTerminal {
    try PseudoTerminal(
      context.inspectorPath, ["open", trace], width: width, height: height,
      environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "NO_COLOR": "1"])
  }

  /// Starts the view and waits for its first frame.
  static func session(_ context: BenchContext, trace: String) throws(BenchError)
    -> PseudoTerminal
  {
    let terminal = try start(context, trace: trace)
    _ = try terminal.read(until: frameEnd, timeout: 30)
    return terminal
  }

  /// Quits the view; it must exit 0.
  static func quit(_ terminal: PseudoTerminal) throws(BenchError) {
    let status = try terminal.quit()
    guard status == 0 else { throw BenchError("inspector open exited with status \(status)") }
  }

  /// Times every key of the script: from writing it to the last byte of the frame it drew.
  /// Keys that drew nothing (a move past an end) are counted apart.
  static func play(
    _ keys: [OpenKeyScript.Key], on terminal: PseudoTerminal
  ) throws(BenchError) -> (latencies: [(String, Double)], silent: Int) {
    var latencies: [(String, Double)] = []
    var silent = 0
    var settle = settleQuiet
    for key in keys {
      try terminal.settle(quiet: settle)
      let sent = terminal.send(key.bytes)
      if let drawn = try terminal.burst(quiet: burstQuiet, wait: 2_000_000_000) {
        latencies.append((key.label, Double(drawn - sent) / 1e6))
      } else {
        silent += 1
      }
      settle = key.startsIdleWork ? idleWorkQuiet : settleQuiet
    }
    return (latencies, silent)
  }
}

/// `open.first-frame.1m`: from starting `inspector open` on the long trace to its whole first
/// frame on the pseudo-terminal (process start, opening the trace, the first queries, the
/// drawing), against `inspector info` on the same trace (start, open, summary, print, exit).
struct OpenFirstFrameCase: BenchCase {
  let name = "open.first-frame.1m"
  let target = Target.atMost(150)

  func run(_ context: BenchContext) throws -> CaseResult {
    let trace = try context.longCounterTrace()
    var frames: [Double] = []
    var baseline: [Double] = []
    var ratios: [Double] = []
    let warmUp = 2
    for round in 0..<(warmUp + context.scale.launches) {
      let start = Stopwatch.now()
      let terminal = try OpenRun.start(context, trace: trace.path)
      let drawn = try terminal.read(until: OpenRun.frameEnd, timeout: 30)
      let frame = Double(drawn - start) / 1e6
      try OpenRun.quit(terminal)
      let info = try ProcessLauncher.timed(context.inspectorPath, ["info", trace.path])
      guard info.status == 0 else { throw BenchError("inspector info exited \(info.status)") }
      guard round >= warmUp else { continue }
      frames.append(frame)
      baseline.append(info.nanos / 1e6)
      ratios.append(frame / (info.nanos / 1e6))
    }
    let measured = Samples(frames)
    return CaseResult(
      name: name, value: measured.median, unit: "ms", spread: Spread(measured),
      baseline: Baseline(label: "inspector info", value: Samples(baseline).median, unit: "ms"),
      ratio: Samples(ratios).median, target: target,
      note: "start to the whole first frame on a \(OpenRun.width)x\(OpenRun.height) pty, "
        + "\(NumberFormat.grouped(Int64(trace.steps))) steps (\(LongTrace.source))")
  }
}

/// `open.key.1m`: each key of a seeded script (`OpenKeyScript`), from writing it to the
/// pseudo-terminal to the last byte of the frame it drew, on the real binary; median (the
/// target), p99 and the slowest key in the note. The baseline is `?` (the help overlay: a
/// frame that reads nothing from the trace), pressed and closed in the same session.
struct OpenKeyCase: BenchCase {
  let name = "open.key.1m"
  let target = Target.atMost(16)

  func run(_ context: BenchContext) throws -> CaseResult {
    let trace = try context.longCounterTrace()
    let terminal = try OpenRun.session(context, trace: trace.path)
    let keys = OpenKeyScript.keys(
      count: context.scale.openKeys, lastStep: trace.steps, seed: 0x0BE1)
    let (latencies, silent) = try OpenRun.play(keys, on: terminal)
    let helpKeys = [
      OpenKeyScript.Key(bytes: "?", label: "?"), OpenKeyScript.Key(bytes: "x", label: "x"),
    ]
    let help = try OpenRun.play(
      Array(repeating: helpKeys, count: max(5, context.scale.openKeys / 10)).flatMap { $0 },
      on: terminal
    ).latencies.map(\.1)
    try OpenRun.quit(terminal)
    guard !latencies.isEmpty else { throw BenchError("no key drew a frame") }
    let measured = Samples(latencies.map(\.1))
    let slowest = latencies.max { $0.1 < $1.1 }!
    let helpMedian = Samples(help).median
    return CaseResult(
      name: name, value: measured.median, unit: "ms", spread: Spread(measured),
      baseline: Baseline(label: "help overlay", value: helpMedian, unit: "ms"),
      ratio: measured.median / helpMedian, target: target,
      note: "p99 \(NumberFormat.compact(measured.quantile(0.99))) ms, slowest "
        + "'\(slowest.0)' \(NumberFormat.compact(slowest.1)) ms; \(latencies.count) keys "
        + "(+\(silent) that drew nothing), key to last byte of its frame on a pty, "
        + "\(NumberFormat.grouped(Int64(trace.steps))) steps")
  }
}

/// `open.memory.1m`: the peak resident memory (`VmHWM`) of `inspector open` on the long trace
/// after the key script, the Tree tab's counts over every step and a search's hits on the
/// timeline; the baseline is the same session on a 1,000-step trace, so a difference is what
/// the length of the trace costs.
struct OpenMemoryCase: BenchCase {
  let name = "open.memory.1m"
  let target = Target.atMost(64)

  func run(_ context: BenchContext) throws -> CaseResult {
    let trace = try context.longCounterTrace()
    let small = try context.shortCounterTrace()
    let long = try peak(context, trace: trace.path, lastStep: trace.steps)
    let short = try peak(context, trace: small.path, lastStep: small.steps)
    return CaseResult(
      name: name, value: long, unit: "MB", spread: .exact(long),
      baseline: Baseline(
        label: "\(NumberFormat.grouped(Int64(small.steps)))-step trace", value: short, unit: "MB"),
      ratio: long / short, target: target,
      note: "peak VmHWM of the process after the key script, the Tree tab counted and a "
        + "search counted, \(NumberFormat.grouped(Int64(trace.steps))) steps")
  }

  private func peak(_ context: BenchContext, trace: String, lastStep: Int) throws -> Double {
    let terminal = try OpenRun.session(context, trace: trace)
    var keys = OpenKeyScript.keys(
      count: context.scale.openKeys, lastStep: lastStep, seed: 0x0BE1)
    // The Tree tab counts every step's action path while idle; G and g read both ends.
    keys += [
      OpenKeyScript.Key(bytes: "5", label: "5 (Tree)", startsIdleWork: true),
      OpenKeyScript.Key(bytes: "G", label: "G"), OpenKeyScript.Key(bytes: "g", label: "g"),
    ]
    _ = try OpenRun.play(keys, on: terminal)
    try terminal.settle(quiet: OpenRun.idleWorkQuiet)
    let bytes = try terminal.peakMemory()
    try OpenRun.quit(terminal)
    return Double(bytes) / 1_048_576
  }
}
