import ComposableCore
import TraceKit

/// Hears every dependency value the replayed reducer reads (through the reducing context, so
/// also from generators set inside the reducer) and checks them against the step's recorded
/// reads: for each dependency, the same values in the same order, no fewer and no more.
///
/// ```swift
/// let check = DependencyCheck()
/// check.begin([DependencyRead(key: "uuid", value: .string(text))])
/// ReducingContext.listening(to: check) { _ = reducer.reduce(into: &state, action: action) }
/// check.end()  // [] — or [.dependencyUnread(key: "uuid", recorded: 1, read: 0)]
/// ```
final class DependencyCheck: DependencyReadListener {
  /// The recorded reads of one dependency, and how many the reducer made.
  private struct Reads {
    var key: String
    var recorded: [TraceValue] = []
    var read = 0
  }

  // One thread only, and a replay checks every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var reads: [Reads] = []
  @exclusivity(unchecked) private var isActive = false
  @exclusivity(unchecked) private var mismatches: [ReplayFinding] = []
  /// The first `now` of each clock type, which clock readings are measured from.
  @exclusivity(unchecked) private var clockOrigins = ClockOrigins()

  /// Starts checking a step's reads.
  func begin(_ recorded: [DependencyRead]) {
    isActive = true
    if recorded.isEmpty && reads.isEmpty { return }
    reads.removeAll(keepingCapacity: true)
    for read in recorded {
      if let index = reads.firstIndex(where: { $0.key == read.key }) {
        reads[index].recorded.append(read.value)
      } else {
        reads.append(Reads(key: read.key, recorded: [read.value]))
      }
    }
    isActive = true
  }

  /// Ends the step; returns how its reads differ from the recorded ones: values that differ,
  /// then dependencies read more often, then those read less often than recorded.
  func end() -> [ReplayFinding] {
    isActive = false
    if reads.isEmpty && mismatches.isEmpty { return [] }
    var findings = mismatches
    mismatches.removeAll()
    for entry in reads where entry.read > entry.recorded.count {
      findings.append(
        .dependencyRanOut(key: entry.key, recorded: entry.recorded.count, read: entry.read))
    }
    for entry in reads where entry.read < entry.recorded.count {
      findings.append(
        .dependencyUnread(key: entry.key, recorded: entry.recorded.count, read: entry.read))
    }
    return findings
  }

  func dependencyRead(_ read: DependencyValueRead) {
    guard isActive else { return }
    check(read.traceRead)
  }

  func clockRead<C: Clock>(_ instant: C.Instant, of clock: C.Type) where C.Duration == Duration {
    guard isActive else { return }
    check(DependencyValueRead.clockNow(clockOrigins.offset(of: instant, on: clock)).traceRead)
  }

  private func check(_ read: DependencyRead) {
    guard let index = reads.firstIndex(where: { $0.key == read.key }) else {
      reads.append(Reads(key: read.key, read: 1))
      return
    }
    let position = reads[index].read
    reads[index].read += 1
    let recorded = reads[index].recorded
    guard position < recorded.count, recorded[position] != read.value else { return }
    mismatches.append(
      .dependencyValue(
        key: read.key, position: position, recorded: recorded[position], read: read.value))
  }
}
