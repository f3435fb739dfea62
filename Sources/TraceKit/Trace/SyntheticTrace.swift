import Foundation

/// A deterministic counter-like recording for tests, the crash-test child and benchmarks: the
/// same `seed` and step number always give the same record and state, in every process.
///
/// ```swift
/// var trace = SyntheticTrace()
/// let (record, state) = trace.next()   // step 1: .increment, count 1
/// ```
package struct SyntheticTrace: Sendable {
  package private(set) var step = 0
  package private(set) var state: TraceValue
  private var count: Int64 = 0
  private var isLoading = false
  package static let effectID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

  package init() {
    state = Self.makeState(count: 0, isLoading: false, label: "idle")
  }

  /// The wall time of step 0 (pass it to `TraceWriter.init`).
  package static let startWallTime = 1_780_000_000.0

  package static let metadata = TraceMetadata(
    rootReducer: "CounterFeature", stateType: "CounterFeature.State",
    actionType: "CounterFeature.Action", keyframeInterval: 256,
    extra: ["scenario": "synthetic"])

  static func makeState(count: Int64, isLoading: Bool, label: String) -> TraceValue {
    .object([
      TraceField("count", .int(count)),
      TraceField("isLoading", .bool(isLoading)),
      TraceField("label", .string(label)),
    ])
  }

  /// The record and the state after the next step.
  package mutating func next() -> (record: StepRecord, state: TraceValue) {
    step += 1
    let n = step
    var changes: [TraceChange] = []
    var paths: [String] = []
    let actionPath: String
    let action: TraceValue
    if n % 5 == 0 {
      isLoading.toggle()
      actionPath = "loadingChanged"
      action = .enumCase("loadingChanged", [TraceField("_0", .bool(isLoading))])
      changes.append(.set(TracePath([.key("isLoading")]), .bool(isLoading)))
      paths.append("isLoading")
    } else {
      let delta: Int64 = n % 3 == 0 ? -1 : 2
      count += delta
      actionPath = delta < 0 ? "decrementButtonTapped" : "incrementButtonTapped"
      action = .enumCase(actionPath, [])
      changes.append(.set(TracePath([.key("count")]), .int(count)))
      paths.append("count")
    }
    let label = "step \(n % 100)"
    changes.append(.set(TracePath([.key("label")]), .string(label)))
    paths.append("label")
    state = Self.makeState(count: count, isLoading: isLoading, label: label)
    let dependencies =
      n % 7 == 0 ? [DependencyRead(key: "uuid", value: .string("00000000-0000-0000-0000-\(n)"))]
      : []
    // A step per millisecond; the wall clock is read a little apart from the monotonic one,
    // as a recorder reading both clocks does (0–4 µs later).
    let mono = UInt64(n) * 1_000_000
    let wallTime = Self.startWallTime + Double(mono + UInt64(n * 7_919 % 4_000)) / 1e9
    let record = StepRecord(
      step: n, monotonicNanos: mono, wallTime: wallTime,
      origin: n % 5 == 0 ? .effect(Self.effectID) : .user, actionPath: actionPath,
      action: action, changes: changes, changedPaths: paths, stateHash: state.stableHash,
      reducerNanos: UInt64(100 + n % 50), dependencies: dependencies)
    return (record, state)
  }
}
