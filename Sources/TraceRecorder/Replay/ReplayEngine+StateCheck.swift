import ComposableCore
import TraceKit

/// The state check of a replay, run as a pipeline: the replay thread hands each step's state
/// (a copy-on-write copy) to the checking stage's thread and goes on with the next step,
/// while that thread hashes the states in order and compares them with the recorded hashes.
///
/// The replay thread still finds the states it has seen match before (`matchedStates`, for
/// `Equatable` states) by itself: those are not handed over. The stage keeps the states it
/// matched in a table of its own (`checkedStates`), as a replay on one thread did; a state
/// it finds there again, one the reducer comes back to, is handed back to the replay
/// thread's table a run later.
extension ReplayEngine {
  /// A state the stage found failing: the `order`th replayed step (from 0), and the state after
  /// it.
  @usableFromInline typealias PendingState = (order: Int, step: RecordedStep, state: Base.State)

  /// Steps whose states one job of the stage checks: handing a job over costs a lock and,
  /// when the stage waits, waking it, so a run shares that among its steps. The replay thread
  /// runs at most this many steps times `StateCheckStage.capacity` plus two ahead of the
  /// last checked state.
  @inlinable static var stateRun: Int { 128 }

  /// Queues the state after `step` for the check; false once the stage found a failing state.
  @inlinable
  func checkState(after step: RecordedStep, order: Int, on stage: StateCheckStage) -> Bool {
    if let stateEquality,
      matchedStates.contains(state, hash: step.stateHash, equal: stateEquality)
    {
      return true
    }
    pendingStates.append(order: order, step: step, state: state)
    guard pendingStates.count >= Self.stateRun else { return true }
    return handOver(to: stage)
  }

  /// Waits until every state handed over is checked; the first that failed, encoded for the
  /// report (on this, the replay thread: the stage has nothing left to do).
  @inlinable
  func settle(_ stage: StateCheckStage) -> StateFailure? {
    if pendingStates.count > 0 { _ = handOver(to: stage) }
    stage.settle()
    guard let (pending, error) = failedState else { return nil }
    failedState = nil
    let replayed: Result<TraceValue, ReplayError>
    if let error {
      replayed = .failure(error)
    } else {
      do {
        replayed = .success(try encode(pending.state, step: pending.step.step))
      } catch {
        replayed = .failure(error)
      }
    }
    return StateFailure(order: pending.order, step: pending.step, replayed: replayed)
  }

  /// Hands the pending states to the stage as one job; false once the stage found a failing
  /// state.
  @inlinable
  func handOver(to stage: StateCheckStage) -> Bool {
    if stateEquality != nil {
      let confirmed = stage.locked { () -> [(hash: UInt64, state: Base.State)] in
        defer { confirmedStates = [] }
        return confirmedStates
      }
      for (hash, state) in confirmed { matchedStates.insert(state, hash: hash) }
    }
    let run = pendingStates
    pendingStates = PendingStates(capacity: Self.stateRun)
    return stage.submit(through: run.orders[run.count - 1]) { [self] in
      checkStates(run, on: stage)
    }
  }

  /// The stage's job: hashes each state of `run` in order; false at the first that fails.
  ///
  /// Each state is moved out of `run` and its step read in place (see `PendingStates`).
  @inlinable
  func checkStates(_ run: PendingStates<Base.State>, on stage: StateCheckStage) -> Bool {
    var confirmed: [(hash: UInt64, state: Base.State)] = []
    defer {
      if !confirmed.isEmpty { stage.locked { confirmedStates += confirmed } }
    }
    for index in 0..<run.count {
      let state = run.takeState(at: index)
      let recorded = run.steps[index].stateHash
      // A state the stage matched before, which the replay thread did not know: it comes
      // back, so the replay thread learns it (a state seen once is not worth its insert).
      if let stateEquality,
        checkedStates.contains(state, hash: recorded, equal: stateEquality)
      {
        confirmed.append((recorded, state))
        continue
      }
      do {
        let hash = try stateHash(of: state, step: run.steps[index].step)
        guard hash == recorded else {
          failedState = ((run.orders[index], run.steps[index], state), nil)
          return false
        }
        if stateEquality != nil { checkedStates.insert(state, hash: hash) }
      } catch {
        failedState = ((run.orders[index], run.steps[index], state), error)
        return false
      }
    }
    return true
  }
}
