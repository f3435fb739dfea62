import Foundation

/// `inspector.*.1m`: the whole-process time of the real `inspector` binary on the long trace
/// (start, open, query, print, exit), compared launch by launch with starting `/bin/true`.
struct InspectorCommandCase: BenchCase {
  let name: String
  var target = Target.atMost(25)
  /// The command and its options after the trace path, given the trace's last step.
  let arguments: @Sendable (_ lastStep: Int) -> (command: String, options: [String])
  /// The options of the checked run when they differ from the timed one's (a command whose
  /// whole output is too large to capture is checked on a range).
  var checkOptions: (@Sendable (_ lastStep: Int) -> [String])?
  /// Timed launches, when fewer than the scale's (a command that takes seconds).
  var launches: Int?

  init(
    name: String,
    arguments: @escaping @Sendable (_ lastStep: Int) -> (command: String, options: [String])
  ) {
    self.name = name
    self.arguments = arguments
  }

  /// `inspector.export.1m`: `inspector export TRACE` (the whole trace as one JSON document,
  /// written to /dev/null); checked on its last ten steps, 5 launches.
  static var export: InspectorCommandCase {
    var export = InspectorCommandCase(name: "inspector.export.1m") { _ in ("export", []) }
    export.target = .atMost(2_000)
    export.checkOptions = { last in ["--from", String(max(0, last - 10))] }
    export.launches = 5
    return export
  }

  func run(_ context: BenchContext) throws -> CaseResult {
    let trace = try context.longCounterTrace()
    let (command, options) = arguments(trace.steps)
    let argv = [command, trace.path] + options
    let shown = (["inspector"] + argv).joined(separator: " ")
    // One checked run: the command works on this trace and prints something.
    let checkArgv = [command, trace.path] + (checkOptions?(trace.steps) ?? options)
    let check = try ProcessLauncher.captured(context.inspectorPath, checkArgv)
    guard check.status == 0, !check.stdout.isEmpty else {
      throw BenchError(
        "\(shown) exited with status \(check.status): "
          + (check.stderr.isEmpty ? "no output" : check.stderr.trimmingCharacters(in: .newlines)))
    }
    var subject: [Double] = []
    var baseline: [Double] = []
    var ratios: [Double] = []
    let warmUp = launches == nil ? 2 : 1
    for round in 0..<(warmUp + min(launches ?? .max, context.scale.launches)) {
      // Alternate the order so neither side always runs on a cache the other warmed.
      var inspectorRun: ProcessLauncher.TimedRun
      var trueRun: ProcessLauncher.TimedRun
      if round % 2 == 0 {
        inspectorRun = try ProcessLauncher.timed(context.inspectorPath, argv)
        trueRun = try ProcessLauncher.timed("/bin/true", [])
      } else {
        trueRun = try ProcessLauncher.timed("/bin/true", [])
        inspectorRun = try ProcessLauncher.timed(context.inspectorPath, argv)
      }
      guard inspectorRun.status == 0 else {
        throw BenchError("\(shown) exited with status \(inspectorRun.status)")
      }
      guard round >= warmUp else { continue }
      subject.append(inspectorRun.nanos / 1e6)
      baseline.append(trueRun.nanos / 1e6)
      ratios.append(inspectorRun.nanos / trueRun.nanos)
    }
    let measured = Samples(subject)
    return CaseResult(
      name: name, value: measured.median, unit: "ms", spread: Spread(measured),
      baseline: Baseline(label: "/bin/true", value: Samples(baseline).median, unit: "ms"),
      ratio: Samples(ratios).median, target: target,
      note: "\(shown.replacingOccurrences(of: trace.path, with: "TRACE")), "
        + "\(NumberFormat.grouped(Int64(trace.steps))) steps")
  }
}
