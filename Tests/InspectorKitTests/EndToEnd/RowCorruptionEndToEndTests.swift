import Foundation
import TestSupport
import XCTest

/// Thousands of traces damaged row by row through SQLite (`TraceCorruption`), every inspector
/// command on each: no trap, no hang, bounded memory, and every failure exactly one line that
/// says what and where, with no SQL in it; a `--json` command leaves one JSON document or none.
///
/// The commands run in `inspector-corruption-child`, the inspector's own code in a process of
/// its own, so a trap or a hang ends that process and the test names the variant and the
/// command. One variant in ten is also run through the built `inspector` binary (one command
/// each, in turn), which must answer exactly as the child did.
final class RowCorruptionEndToEndTests: EndToEndTestCase {
  static let variants = 2_000
  static let batchSize = 200
  /// How many command lines the child runs on each variant (its `commands`).
  static let commandLines = 13
  /// The child's largest resident size over a batch: far below a runaway allocation.
  static let memoryLimitKiB = 200 * 1024

  struct Variant {
    var base: String
    var edits: [String]
  }

  struct ChildReport {
    var commands: [Int: [String]] = [:]
    /// "FILE INDEX" → "STATUS HASH".
    var results: [String: String] = [:]
    var broken: [String] = []
    var started: String?
    var maxResidentKiB = 0
  }

  func testThousandsOfRowLevelVariantsNeverTrapHangOrMislead() throws {
    // The sample session three ways, and two recorded sessions of the fixture features
    // (presentation, forEach, dependency values).
    let bases = [
      sample!,
      try writeSample(named: "gapped.rewind", ["--drop", "6", "--drop", "7"]),
      try writeSample(named: "longer.rewind", ["--steps", "40", "--keyframe-interval", "8"]),
      FixtureTracesEndToEndTests.traces.appendingPathComponent("todos.rewind"),
      FixtureTracesEndToEndTests.traces.appendingPathComponent("home.rewind"),
    ]
    var variants: [String: Variant] = [:]
    var running: [(directory: URL, child: BuiltProducts.Running)] = []
    var failures: [String] = []
    var checked = 0
    var crossChecked = 0

    func finish(_ batch: (directory: URL, child: BuiltProducts.Running)) throws {
      batch.child.process.waitUntilExit()
      let output = batch.child.output()
      let report = Self.parse(output.out)
      func describe(_ key: String) -> String {
        let file = String(key.split(separator: " ")[0])
        let index = key.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        let variant = variants[file]
        let command = index.flatMap { report.commands[$0] }?.joined(separator: " ") ?? "?"
        return "\(file) (base \(variant?.base ?? "?"), edits \(variant?.edits ?? [])), "
          + "inspector \(command)"
      }
      if output.status != 0 || batch.child.process.terminationReason != .exit {
        let reason =
          switch output.status {
          case SIGPROF: "spun (10 s of CPU)"
          case SIGALRM: "hung (120 s)"
          default: "ended by status \(output.status)"
          }
        failures.append(
          "the child \(reason) on \(report.started.map(describe) ?? "?"): "
            + String(output.err.suffix(600)))
      }
      for line in report.broken {
        let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
        failures.append(describe(parts[0] + " " + parts[1]) + ": " + parts[2])
      }
      if report.maxResidentKiB > Self.memoryLimitKiB {
        failures.append("the child reached \(report.maxResidentKiB) KiB resident")
      }
      checked += report.results.count
      // The built binary answers as the child did: one variant in ten, one command each.
      for (key, result) in report.results.sorted(by: { $0.key < $1.key }) {
        let parts = key.split(separator: " ")
        guard let seed = UInt64(parts[0].dropFirst().dropLast(7)), seed % 10 == 0,
          let index = Int(parts[1]), index == Int(seed / 10) % (report.commands.count - 1),
          let command = report.commands[index], command[0] != "follow"
        else { continue }
        let path = batch.directory.appendingPathComponent(String(parts[0])).path
        let binary = try BuiltProducts.run(
          "inspector", command.map { $0 == "TRACE" ? path : $0 }, in: batch.directory)
        let hash = Self.hash(binary.out + "\0" + binary.err)
        crossChecked += 1
        if "\(binary.status) \(hash)" != result {
          failures.append(
            describe(key) + ": the binary answered \(binary.status) \(binary.err.debugDescription)"
              + ", the child \(result)")
        }
      }
      try FileManager.default.removeItem(at: batch.directory)
    }

    var seed: UInt64 = 0
    while seed < UInt64(Self.variants) {
      let batch = directory.url.appendingPathComponent("batch-\(seed)")
      try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: false)
      for _ in 0..<Self.batchSize {
        let base = bases[Int(seed % UInt64(bases.count))]
        let name = "v\(seed).rewind"
        let copy = batch.appendingPathComponent(name)
        try FileManager.default.copyItem(at: base, to: copy)
        let edits = try TraceCorruption(seed: seed).apply(to: copy.path)
        variants[name] = Variant(base: base.lastPathComponent, edits: edits)
        seed += 1
      }
      running.append(
        (batch, try BuiltProducts.start("inspector-corruption-child", [batch.path], in: batch)))
      // Two children at a time: the machine has two cores.
      if running.count == 2 { try finish(running.removeFirst()) }
    }
    for batch in running { try finish(batch) }

    XCTAssertEqual(checked, Self.variants * Self.commandLines)
    XCTAssertEqual(crossChecked, Self.variants / 10)
    XCTAssertTrue(
      failures.isEmpty,
      "\(failures.count) failures:\n"
        + failures.prefix(40).joined(
          separator: "\n"))
  }

  static func parse(_ text: String) -> ChildReport {
    var report = ChildReport()
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.dropFirst(2)
      switch line.first {
      case "C":
        let parts = line.split(separator: "\t").map(String.init)
        if parts.count > 2, let index = Int(parts[1]) {
          report.commands[index] = Array(parts.dropFirst(2))
        }
      case ">": report.started = String(fields)
      case "=":
        let parts = fields.split(separator: " ")
        report.results[parts[0] + " " + parts[1]] = parts[2] + " " + parts[3]
        report.started = nil
      case "!": report.broken.append(String(fields))
      case "M": report.maxResidentKiB = Int(fields) ?? 0
      default: break
      }
    }
    return report
  }

  /// FNV-1a, as the child computes it.
  static func hash(_ text: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return String(hash, radix: 16)
  }
}
