import ComposableCore
import TraceKit

/// Hears every dependency value the replayed reducer reads (through the reducing context, so
/// also from generators set inside the reducer) and checks them against the step's recorded
/// reads: the same values, in the same order, no fewer and no more.
///
/// ```swift
/// let check = DependencyCheck()
/// check.begin([DependencyRead(key: "uuid", value: .string(text))])
/// ReducingContext.listening(to: check) { _ = reducer.reduce(into: &state, action: action) }
/// check.end()  // [] — or [.dependencyUnread(key: "uuid", recorded: 1, read: 0)]
/// ```
final class DependencyCheck: DependencyReadListener {
  private var expected: [DependencyRead] = []
  private var position = 0
  private var isActive = false
  /// Reads past the recorded ones, per key, in the order their keys first ran out.
  private var overflow: [(key: String, count: Int)] = []
  private var mismatches: [ReplayFinding] = []
  /// The first `now` of each clock type, which clock readings are measured from.
  private var clockOrigins: [ObjectIdentifier: any Sendable] = [:]

  /// Starts checking a step's reads.
  func begin(_ reads: [DependencyRead]) {
    expected = reads
    position = 0
    isActive = true
  }

  /// Ends the step; returns how its reads differ from the recorded ones.
  func end() -> [ReplayFinding] {
    isActive = false
    guard position != expected.count || !mismatches.isEmpty || !overflow.isEmpty else {
      return []
    }
    var findings = mismatches
    for (key, count) in overflow {
      let recorded = expected.count { $0.key == key }
      findings.append(.dependencyRanOut(key: key, recorded: recorded, read: recorded + count))
    }
    if position < expected.count {
      var keys: [String] = []
      for read in expected[position...] where !keys.contains(read.key) { keys.append(read.key) }
      for key in keys {
        let recorded = expected.count { $0.key == key }
        let read = expected[..<position].count { $0.key == key }
        findings.append(.dependencyUnread(key: key, recorded: recorded, read: read))
      }
    }
    mismatches.removeAll()
    overflow.removeAll()
    return findings
  }

  /// Whether the step asked for more values than were recorded (the replay must end).
  var ranOut: Bool { !overflow.isEmpty }

  func dependencyRead(_ read: DependencyValueRead) {
    guard isActive else { return }
    check(read.traceRead)
  }

  func clockRead<C: Clock>(_ instant: C.Instant, of clock: C.Type) where C.Duration == Duration {
    guard isActive else { return }
    let key = ObjectIdentifier(clock)
    let offset: Duration
    if let origin = clockOrigins[key] as? C.Instant {
      offset = origin.duration(to: instant)
    } else {
      clockOrigins[key] = instant
      offset = .zero
    }
    check(DependencyValueRead.clockNow(offset).traceRead)
  }

  private func check(_ read: DependencyRead) {
    defer { position += 1 }
    guard position < expected.count else {
      if let index = overflow.firstIndex(where: { $0.key == read.key }) {
        overflow[index].count += 1
      } else {
        overflow.append((read.key, 1))
      }
      return
    }
    let recorded = expected[position]
    guard recorded != read else { return }
    let ordinal = expected[..<position].count { $0.key == read.key }
    mismatches.append(
      .dependencyValue(key: read.key, position: ordinal, recorded: recorded.value, read: read.value))
  }
}
