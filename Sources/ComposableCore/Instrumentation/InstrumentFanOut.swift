/// Tells several instruments of one store every fact, in the order they were found.
///
/// ```swift
/// let both = InstrumentFanOut<S, A>([recorder, inspector])
/// both.stepBegan(1, action: .refresh, origin: .user)  // recorder first, then inspector
/// ```
@MainActor
final class InstrumentFanOut<State, Action: Sendable>: StoreInstrument {
  let instruments: [any StoreInstrument<State, Action>]

  init(_ instruments: [any StoreInstrument<State, Action>]) {
    self.instruments = instruments
  }

  func dependencyKeysLogged(_ log: DependencyKeyLog) {
    for instrument in instruments { instrument.dependencyKeysLogged(log) }
  }

  func storeStarted(state: borrowing State) {
    for instrument in instruments { instrument.storeStarted(state: state) }
  }

  func stepBegan(_ step: Int, action: Action, origin: ActionOrigin) {
    for instrument in instruments { instrument.stepBegan(step, action: action, origin: origin) }
  }

  func dependencyRead(_ read: DependencyValueRead) {
    for instrument in instruments { instrument.dependencyRead(read) }
  }

  func stepEnded(
    _ step: Int, action: Action, state: UnsafePointer<State>, reducerStart: UInt64,
    reducerNanos: UInt64
  ) {
    for instrument in instruments {
      instrument.stepEnded(
        step, action: action, state: state, reducerStart: reducerStart,
        reducerNanos: reducerNanos)
    }
  }

  func effectStarted(_ launch: consuming EffectLaunch) {
    for instrument in instruments { instrument.effectStarted(copy launch) }
  }

  func effectFinished(_ id: EffectID) {
    for instrument in instruments { instrument.effectFinished(id) }
  }

  func effectsCancelled(_ ids: [EffectID], cause: EffectCancelCause, step: Int?) {
    for instrument in instruments {
      instrument.effectsCancelled(ids, cause: cause, step: step)
    }
  }

  func effectCancelled(_ id: EffectID, cause: EffectCancelCause, step: Int?) {
    for instrument in instruments {
      instrument.effectCancelled(id, cause: cause, step: step)
    }
  }

  func inspectorStep(_ step: Int, kind: InspectorStepKind, state: borrowing State) {
    for instrument in instruments { instrument.inspectorStep(step, kind: kind, state: state) }
  }

  func storeControlled(by control: any StoreControl<State, Action>) {
    for instrument in instruments { instrument.storeControlled(by: control) }
  }
}
