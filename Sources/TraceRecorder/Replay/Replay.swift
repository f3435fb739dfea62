import ComposableCore
import Foundation
import TraceKit

/// Re-executes a recorded trace on the real reducer and checks every step's state hash.
///
/// Effects are not run: the actions they sent are in the trace, at the positions where the
/// store reduced them. The values the reducer read from `uuid`, `date` and
/// `withRandomNumberGenerator` are served back from the trace. The steps an attached
/// inspector made are replayed as they happened: a jump takes the state recorded at it
/// (decoded), a continue leaves the state as it is; actions the inspector sent are reduced
/// like any other.
///
/// ```swift
/// let result = try Replay(trace: "bug.rewind", reducer: AppFeature()).run()
/// print(result)
/// // Replayed 42 steps: every state matches the trace.
/// // — or —
/// // Step 17 (counter.incrementTapped) diverged from the trace:
/// //   counter.count: 3 → 4
/// ```
public struct Replay<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  /// The trace file.
  public let path: String
  /// The reducer to check against the trace.
  public let reducer: Base
  /// The state to start from; nil decodes step 0 of the trace.
  public let initialState: Base.State?

  public init(trace path: String, reducer: Base, initialState: Base.State? = nil) {
    self.path = path
    self.reducer = reducer
    self.initialState = initialState
  }

  /// Replays every step, stopping at the first whose state differs from the trace.
  ///
  /// - Throws: `ReplayError` when the trace cannot be read, has a gap, or the state or
  ///   action types no longer fit what was recorded.
  public func run() throws(ReplayError) -> ReplayResult {
    let reader: TraceReader
    let info: TraceInfo
    do {
      reader = try TraceReader(path: path)
      info = try reader.info()
    } catch {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    }
    let redaction = Redaction(
      paths: RecorderMetadata.paths(info.metadata.extra, key: RecorderMetadata.redactedStateKey))
    let recordedInitial = try read(step: 0) { () throws(TraceError) in try reader.state(at: 0) }
    var state = try startingState(recordedInitial)
    let encoder = TraceValueEncoder()
    let decoder = TraceValueDecoder()
    let last = info.stepCount
    if let gap = info.gaps.first {
      throw ReplayError(.gap(afterStep: gap.afterStep, dropped: gap.dropped), path: path)
    }
    var matched = 0
    for step in stride(from: 1, through: last, by: 1) {
      let row = try read(step: step) { () throws(TraceError) in try reader.row(at: step) }
      let actionValue = try read(step: step) { () throws(TraceError) in
        try reader.action(at: step)
      }
      if row.origin.isInspectorStep {
        if case .jump = row.origin {
          // The inspector replaced the state: it is the one recorded at this step.
          let recorded = try read(step: step) { () throws(TraceError) in
            try reader.state(at: step)
          }
          state = try decodedState(recorded)
        }
      } else {
        try reduce(
          &state, step: step, row: row, actionValue: actionValue, reader: reader,
          decoder: decoder)
      }
      var replayed: TraceValue
      do {
        replayed = try encoder.encode(state)
      } catch {
        throw ReplayError(.encoding(step: step, detail: "\(error)"), path: path)
      }
      redaction.apply(to: &replayed)
      if replayed.stableHash != row.stateHash {
        let recorded = try read(step: step) { () throws(TraceError) in
          try reader.state(at: step)
        }
        return .diverged(
          ReplayDivergence(
            step: step, actionPath: row.actionPath, action: actionValue, recorded: recorded,
            replayed: replayed, changes: TraceDiff.changes(from: recorded, to: replayed),
            matchedSteps: matched))
      }
      matched += 1
    }
    return .matched(steps: matched)
  }

  /// Reduces the action of a recorded step, with the dependency values it read served back.
  private func reduce(
    _ state: inout Base.State, step: Int, row: StepRow, actionValue: TraceValue,
    reader: TraceReader, decoder: TraceValueDecoder
  ) throws(ReplayError) {
    let reads = try read(step: step) { () throws(TraceError) in
      try reader.dependencies(at: step)
    }
    let action: Base.Action
    do {
      action = try decoder.decode(Base.Action.self, from: actionValue)
    } catch {
      throw ReplayError(
        .actionShape(
          step: step, actionPath: row.actionPath, type: String(reflecting: Base.Action.self),
          detail: ShapeDescription.decodingFailure(error)),
        path: path)
    }
    let served = ServedDependencies(reads)
    _ = withDependencies {
      served.install(into: &$0)
    } operation: {
      reducer.reduce(into: &state, action: action)
    }
  }

  /// A recorded state decoded into the feature's state type.
  private func decodedState(_ recorded: TraceValue) throws(ReplayError) -> Base.State {
    do {
      return try TraceValueDecoder().decode(Base.State.self, from: recorded)
    } catch {
      throw ReplayError(
        .stateShape(
          type: String(reflecting: Base.State.self),
          detail: ShapeDescription.decodingFailure(error)),
        path: path)
    }
  }

  private func read<T>(step: Int, _ body: () throws(TraceError) -> T) throws(ReplayError) -> T {
    do {
      return try body()
    } catch {
      throw ReplayError(.unreadableTrace(error.description), path: path)
    }
  }

  /// The given initial state, or step 0 decoded; either way checked against the trace's shape.
  private func startingState(_ recorded: TraceValue) throws(ReplayError) -> Base.State {
    let typeName = String(reflecting: Base.State.self)
    let state: Base.State
    if let initialState {
      state = initialState
    } else {
      do {
        state = try TraceValueDecoder().decode(Base.State.self, from: recorded)
      } catch {
        throw ReplayError(
          .stateShape(type: typeName, detail: ShapeDescription.decodingFailure(error)),
          path: path)
      }
    }
    let encoded: TraceValue
    do {
      encoded = try TraceValueEncoder().encode(state)
    } catch {
      throw ReplayError(.encoding(step: 0, detail: "\(error)"), path: path)
    }
    if let difference = ShapeDescription.fieldDifference(recorded: recorded, current: encoded) {
      throw ReplayError(.stateShape(type: typeName, detail: difference), path: path)
    }
    return state
  }
}
