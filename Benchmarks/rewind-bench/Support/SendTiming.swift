import ComposableCore
import CounterFeature

/// Per-send time of one sample of sends: wall clock, and CPU time of the main thread; with
/// the main thread's page faults and context switches per send (read outside the timing).
///
/// ```swift
/// let timing = SendTiming.sends(store, 2_000)   // sends CounterScript's actions 2…2001
/// timing.wall                                   // ns per send
/// ```
struct SendTiming {
  var wall: Double
  var cpu: Double
  var usage = ThreadUsage()

  /// Times `count` sends of the counter script (from step 2 on: step 1 made the store warm).
  @MainActor
  static func sends(_ store: StoreOf<Counter>, _ count: Int, from first: Int = 2) -> SendTiming {
    sends(store, count, from: first, script: CounterScript.action(at:))
  }

  /// Times `count` sends of `script`'s actions from step `first` on.
  @MainActor
  static func sends<State, Action>(
    _ store: Store<State, Action>, _ count: Int, from first: Int = 2,
    script: (Int) -> Action
  ) -> SendTiming {
    let usageStart = ThreadUsage.now()
    let cpuStart = Stopwatch.threadCPUNow()
    let start = Stopwatch.now()
    for step in first..<(first + count) { store.send(script(step)) }
    let wall = Double(Stopwatch.now() - start)
    let cpu = Double(Stopwatch.threadCPUNow() - cpuStart)
    let usage = (ThreadUsage.now() - usageStart).per(count)
    return SendTiming(wall: wall / Double(count), cpu: cpu / Double(count), usage: usage)
  }
}
