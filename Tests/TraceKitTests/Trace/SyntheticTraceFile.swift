import Foundation

@testable import TraceKit

/// Writes a closed synthetic trace with effects, a tree and a gap-free run of steps, and
/// returns the state after every step.
@discardableResult
func writeSyntheticTrace(
  at path: String, steps: Int, keyframeInterval: Int = 256, chunkStepLimit: Int = 512
) throws -> [TraceValue] {
  var metadata = SyntheticTrace.metadata
  metadata.keyframeInterval = keyframeInterval
  var trace = SyntheticTrace()
  let writer = try TraceWriter(path: path, metadata: metadata, initialState: trace.state)
  writer.chunkStepLimit = chunkStepLimit
  try writer.writeTree(
    ReducerTreeNode(kind: "Recorder", typeName: "CounterFeature",
                    children: [ReducerTreeNode(kind: "Reduce", typeName: "CounterFeature")]))
  var states = [trace.state]
  for _ in 0..<steps {
    let (record, state) = trace.next()
    try writer.append(record, state: state)
    states.append(state)
    if record.step % 10 == 0 {
      try writer.effectStarted(
        EffectRecord(id: SyntheticTrace.effectID(record.step), startedByStep: record.step,
                     cancelID: "load", startNanos: UInt64(record.step)))
      try writer.effectSent(id: SyntheticTrace.effectID(record.step), step: record.step)
    }
  }
  try writer.close()
  return states
}

extension SyntheticTrace {
  /// A distinct, deterministic effect id per step.
  static func effectID(_ step: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", step))!
  }
}
