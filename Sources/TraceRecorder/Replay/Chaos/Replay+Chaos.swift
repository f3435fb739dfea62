import ComposableCore
import Foundation
import TraceKit

extension Replay {
  /// Re-runs the recorded actions with the effects' recorded outputs delivered in other orders
  /// that the recording allows, and reports every schedule whose outcome (the final state)
  /// differs from the recording's: rr's chaos mode, for a reducer world.
  ///
  /// The user's actions keep their order; an effect's own sends keep theirs; nothing arrives
  /// before the step that started its effect, or after its effect's recorded cancellation; and
  /// the reducer decides, in each order, which effects run and which it cancels (a send of a
  /// cancelled effect is dropped, as the store drops it). Each run moves some deliveries at
  /// random from its own seed; a schedule whose outcome differs is shrunk to as few moved
  /// deliveries as still change the outcome, and reported with the first step whose state
  /// differs, the two orders side by side and the seed that runs it again
  /// (`chaos(seed: schedule.seed, runs: 1)`).
  ///
  /// ```swift
  /// let report = try Replay(trace: "search.rewind", reducer: Search()).chaos(seed: 1, runs: 100)
  /// print(report)
  /// // Chaos replay: 100 schedules, 41 end differently from the recording (1 distinct shrunk
  /// // order). The first:
  /// // seed 0x… (run 0): 1 delivery moved; the state first differs after step 3
  /// // …
  /// ```
  ///
  /// - Throws: `ReplayError` when the trace cannot be read or no longer fits the types.
  @inlinable
  public func chaos(seed: UInt64, runs: Int) throws(ReplayError) -> ChaosReport {
    let (reducer, initialState) = (self.reducer, self.initialState)
    return try ChaosDriver.run(path: path, seed: seed, runs: runs) { trace throws(ReplayError) in
      try ReplayEngine(reducer: reducer, initialState: initialState, trace: trace).chaosSteps
    }
  }
}
