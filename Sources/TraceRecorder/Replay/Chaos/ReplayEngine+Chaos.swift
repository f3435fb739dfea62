import ComposableCore
import TraceKit

extension ReplayEngine {
  /// The closures the chaos driver calls, specialized for the feature's types.
  @inlinable
  var chaosSteps: ChaosSteps {
    ChaosSteps(
      reset: { [self] in state = initial },
      runBatch: { [self] head, describing throws(ReplayError) in
        try runBatch(head, describing: describing)
      },
      stateHash: { [self] step throws(ReplayError) in try stateHash(step: step) },
      encodedState: { [self] step throws(ReplayError) in try encode(step: step) })
  }

  /// Reduces `head`'s recorded action, then the `.send`s the reducer returns, breadth-first,
  /// as the store would; returns each reduced step, with its action encoded when
  /// `describing`.
  @inlinable
  func runBatch(_ head: RecordedStep, describing: Bool) throws(ReplayError) -> [ChaosStep] {
    var queue = [try decode(head)]
    var reduced: [ChaosStep] = []
    var index = 0
    while index < queue.count {
      let action = queue[index]
      let effect = reducer.reduce(into: &state, action: action)
      var step = ChaosStep()
      if describing {
        step.action = index == 0 ? head.action : try encode(action, step: head.step)
      }
      index += 1
      if case .none = effect.node {
        reduced.append(step)
        continue
      }
      let plan = try effectPlan(of: effect, step: head.step)
      queue += plan.sends
      step.cancellations = plan.cancellations
      step.events = plan.events
      reduced.append(step)
    }
    return reduced
  }
}
