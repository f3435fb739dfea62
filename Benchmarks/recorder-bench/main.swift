import ComposableCore
import Foundation
import Locking
import TraceKit
import TraceRecorder

// Measures the Recorder in release mode (a throwaway until `rewind-bench` owns these cases):
//   swift build -c release --product recorder-bench && .build/release/recorder-bench
// Prints the main-actor cost of a send (recorded vs bare, same run) and end-to-end steps/s.

struct Counter: Reducer {
  struct State: Codable, Equatable, Sendable { var count = 0 }
  enum Action: Codable, Equatable, Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

struct Big: Reducer {
  struct Item: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var done: Bool
  }

  struct State: Codable, Equatable, Sendable {
    var items: IdentifiedArrayOf<Item>
    var touched = 0
  }

  enum Action: Codable, Equatable, Sendable { case toggle(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggle(let id):
      state.items[id: id]?.done.toggle()
      state.touched += 1
    }
    return .none
  }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time of the calling thread: what the main actor itself spends, without the time it
/// waits for a core while the writer and other processes run (2 shared cores).
func threadCPU() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

let directory = FileManager.default.temporaryDirectory
  .appendingPathComponent("recorder-bench-\(getpid())")
try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let traceNames = Lock(0)
func tracePath() -> String {
  let number = traceNames.withLock { value -> Int in
    value += 1
    return value
  }
  return directory.appendingPathComponent("t\(number).rewind").path
}

/// A recorder on a new trace path; a configuration it refuses ends the program.
func makeRecorder(_ configuration: Recorder.Configuration = .init()) -> Recorder {
  do {
    return try Recorder(path: tracePath(), configuration: configuration)
  } catch {
    print("recorder-bench: \(error)")
    exit(2)
  }
}

@MainActor
func overheadPerSend() {
  let rounds = 31
  let sends = 20_000
  let bare = Store(initialState: Counter.State()) { Counter() }
  let recorder = makeRecorder(.init(queueCapacity: 1 << 20))
  let recorded = Store(initialState: Counter.State()) { Counter().recording(to: recorder) }
  var bareTimes: [Double] = []
  var recordedTimes: [Double] = []
  var bareWall: [Double] = []
  var recordedWall: [Double] = []
  for _ in 0..<rounds {
    var start = threadCPU()
    var wall = now()
    for _ in 0..<sends { bare.send(.increment) }
    bareTimes.append(Double(threadCPU() - start) / Double(sends))
    bareWall.append(Double(now() - wall) / Double(sends))
    start = threadCPU()
    wall = now()
    for _ in 0..<sends { recorded.send(.increment) }
    recordedTimes.append(Double(threadCPU() - start) / Double(sends))
    recordedWall.append(Double(now() - wall) / Double(sends))
    // Let the writer catch up outside the timed region, so rounds do not pile up.
    while recorder.queuedEvents > 0 { usleep(1_000) }
  }
  recorder.finishBlocking()
  let bareNs = median(bareTimes)
  let recordedNs = median(recordedTimes)
  print(
    String(
      format: "send overhead (counter, main-thread CPU time): bare %.1f ns, recorded %.1f ns, "
        + "added %.1f ns per send",
      bareNs, recordedNs, recordedNs - bareNs))
  print(
    String(
      format: "send overhead (counter, wall time, writer running): bare %.1f ns, recorded %.1f ns,"
        + " added %.1f ns per send",
      median(bareWall), median(recordedWall), median(recordedWall) - median(bareWall)))
}

@MainActor
func endToEnd<R: Reducer>(
  _ name: String, steps: Int, initial: R.State, reducer: R, action: (Int) -> R.Action
) where R.State: Encodable & Sendable, R.Action: Encodable {
  let bare = Store(initialState: initial) { reducer }
  var start = now()
  var cpu = threadCPU()
  for step in 0..<steps { bare.send(action(step)) }
  let bareSeconds = Double(now() - start) / 1e9
  let bareCPU = Double(threadCPU() - cpu) / Double(steps)
  let recorder = makeRecorder()
  let store = Store(initialState: initial) { reducer.recording(to: recorder) }
  start = now()
  cpu = threadCPU()
  for step in 0..<steps { store.send(action(step)) }
  let recordedCPU = Double(threadCPU() - cpu) / Double(steps)
  recorder.finishBlocking()
  let seconds = Double(now() - start) / 1e9
  let size =
    (try? FileManager.default.attributesOfItem(atPath: recorder.path ?? "")[.size] as? Int)
    .flatMap { $0 } ?? 0
  print(
    String(
      format: "end to end (%@): %d steps in %.3f s = %.0f steps/s (bare %.0f steps/s), %d bytes",
      name, steps, seconds, Double(steps) / seconds, Double(steps) / bareSeconds, size))
  print(
    String(
      format: "  main-thread CPU per send (%@): bare %.0f ns, recorded %.0f ns", name, bareCPU,
      recordedCPU))
}

@MainActor
func run() {
  let cases = Set(CommandLine.arguments.dropFirst())
  let all = cases.isEmpty
  if all || cases.contains("overhead") { overheadPerSend() }
  if all || cases.contains("counter") { counterEndToEnd() }
  if all || cases.contains("10k") { bigEndToEnd() }
  if all || cases.contains("effects") { effectLaunches() }
  if cases.contains("pieces") { pieces() }
}

/// What the writer's work on the 10k state costs, piece by piece (for the report).
func pieces() {
  do {
    try measurePieces()
  } catch {
    FileHandle.standardError.write(Data("pieces: encoding failed: \(error)\n".utf8))
  }
}

func measurePieces() throws {
  let items = IdentifiedArrayOf<Big.Item>(
    uniqueElements: (0..<10_000).map { Big.Item(id: $0, title: "item \($0)", done: false) })
  var state = Big.State(items: items)
  let encoder = TraceValueEncoder()
  var start = now()
  let old = try encoder.encode(state)
  print("encode 10k: \(Double(now() - start) / 1000) us")
  state.items[id: 5]?.done = true
  let new = try encoder.encode(state)
  start = now()
  var hash: UInt64 = 0
  for _ in 0..<100 { hash &+= new.stableHash }
  print("stableHash 10k: \(Double(now() - start) / 100_000) us (\(hash))")
  let counter = TraceValue.object([TraceField("count", .int(42))])
  let small = TraceValue.object([
    TraceField("count", .int(3)), TraceField("title", .string("Groceries")),
    TraceField(
      "todos",
      .array(
        (0..<3).map { .object([TraceField("id", .int($0)), TraceField("done", .bool(false))]) })),
  ])
  for (name, value) in [("counter", counter), ("small nested (3 todos)", small)] {
    start = now()
    for _ in 0..<1_000_000 { hash &+= value.stableHash }
    print("stableHash \(name): \(Double(now() - start) / 1_000_000) ns (\(hash))")
  }
  start = now()
  var count = 0
  for _ in 0..<100 { count += TraceDiff.changes(from: old, to: new).count }
  print("diff 10k: \(Double(now() - start) / 100_000) us (\(count))")
}

@MainActor
func counterEndToEnd() {
  endToEnd(
    "counter", steps: 500_000, initial: Counter.State(), reducer: Counter(),
    action: { _ in .increment })
}

@MainActor
func bigEndToEnd() {
  let items = IdentifiedArrayOf<Big.Item>(
    uniqueElements: (0..<10_000).map { Big.Item(id: $0, title: "item \($0)", done: false) })
  endToEnd(
    "10k identified elements, one changed per step", steps: 20_000,
    initial: Big.State(items: items), reducer: Big(), action: { .toggle(($0 * 7919) % 10_000) })
}

/// A counter whose every action starts an effect (its task cannot run while the loop holds the
/// main actor: what is timed is the send and the effect's launch).
struct Launcher: Reducer {
  struct State: Codable, Equatable, Sendable { var count = 0 }
  enum Action: Codable, Equatable, Sendable { case launch }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .run { _ in }
  }
}

@MainActor
func effectLaunches() {
  let rounds = 11
  let sends = 5_000
  var bareTimes: [Double] = []
  var recordedTimes: [Double] = []
  for _ in 0..<rounds {
    let bare = Store(initialState: Launcher.State()) { Launcher() }
    var start = threadCPU()
    for _ in 0..<sends { bare.send(.launch) }
    bareTimes.append(Double(threadCPU() - start) / Double(sends))
    let recorder = makeRecorder(.init(queueCapacity: 1 << 20))
    let recorded = Store(initialState: Launcher.State()) { Launcher().recording(to: recorder) }
    start = threadCPU()
    for _ in 0..<sends { recorded.send(.launch) }
    recordedTimes.append(Double(threadCPU() - start) / Double(sends))
    recorder.finishBlocking()
  }
  print(
    String(
      format: "send launching a .run effect (main-thread CPU time): bare %.1f ns, "
        + "recorded %.1f ns", median(bareTimes), median(recordedTimes)))
}

MainActor.assumeIsolated { run() }
