/// An instrument of a store whose actions wrap the instrumented feature's actions (a test
/// store tags each action with where it came from): tells the base instrument the feature's
/// action.
///
/// ```swift
/// let projected = ProjectedInstrument(base: recorderSession) { (tagged: TestAction) in
///   tagged.action
/// }
/// ```
@MainActor
package final class ProjectedInstrument<State, BaseAction: Sendable, Action: Sendable>:
  StoreInstrument
{
  let base: any StoreInstrument<State, BaseAction>
  let project: (Action) -> BaseAction

  package init(
    base: any StoreInstrument<State, BaseAction>, project: @escaping (Action) -> BaseAction
  ) {
    self.base = base
    self.project = project
  }

  package func dependencyKeysLogged(_ log: DependencyKeyLog) {
    base.dependencyKeysLogged(log)
  }

  package func storeStarted(state: borrowing State) {
    base.storeStarted(state: state)
  }

  package func stepBegan(_ step: Int, action: Action, origin: ActionOrigin) {
    base.stepBegan(step, action: project(action), origin: origin)
  }

  package func dependencyRead(_ read: DependencyValueRead) {
    base.dependencyRead(read)
  }

  package func stepEnded(
    _ step: Int, action: Action, state: UnsafePointer<State>, reducerStart: UInt64,
    reducerNanos: UInt64
  ) {
    base.stepEnded(
      step, action: project(action), state: state, reducerStart: reducerStart,
      reducerNanos: reducerNanos)
  }

  package func effectStarted(_ launch: consuming EffectLaunch) {
    base.effectStarted(launch)
  }

  package func effectFinished(_ id: EffectID) {
    base.effectFinished(id)
  }

  package func effectsCancelled(_ ids: [EffectID], cause: EffectCancelCause, step: Int?) {
    base.effectsCancelled(ids, cause: cause, step: step)
  }

  package func effectCancelled(_ id: EffectID, cause: EffectCancelCause, step: Int?) {
    base.effectCancelled(id, cause: cause, step: step)
  }

  package func inspectorStep(_ step: Int, kind: InspectorStepKind, state: borrowing State) {
    base.inspectorStep(step, kind: kind, state: state)
  }
}
