/// What an attached inspector did to a root core: the actions it holds, and the present it
/// left when it jumped.
struct Inspection {
  /// An action sent while the store was paused, with what is needed to reduce it later.
  struct HeldAction<Action> {
    var action: Action
    var origin: ActionOrigin
    /// The task group its effects join (that of the effect which sent it).
    var group: EffectTaskGroup?
    /// The step that started the effect which sent it, if an effect did.
    var effectStep: Int?
  }

  /// The state the store left at its first jump, and the last step before it.
  struct Present<State> {
    var state: State
    var step: Int
  }

  /// Type-erased so that `Inspection` needs no generic parameters (a stored property of the
  /// generic core); the core casts them back to its own types.
  var held: [Any] = []
  var present: Any?
  var history = JumpHistory()
}

extension RootCore: StoreControl {
  private typealias Held = Inspection.HeldAction<Action>

  @usableFromInline
  package var controlStatus: StoreControlStatus {
    StoreControlStatus(
      lastStep: stepCount, isPaused: isHolding, jumpedTo: inspection.history.jumpedTo,
      presentStep: inspection.history.presentStep, heldActions: inspection.held.count)
  }

  @usableFromInline
  @discardableResult
  package func pause() -> Bool {
    guard !isHolding else { return false }
    isHolding = true
    return true
  }

  @usableFromInline
  package func jump(to state: State, recordedStep: Int) throws(StoreControlError) -> Int {
    guard !isSending else { throw .busy }
    isHolding = true
    if let present = inspection.present as? Inspection.Present<State>,
      inspection.history.isReturn(to: recordedStep)
    {
      // Back to the present, still paused: the jump ends as a resume would end it.
      storage.pointer.pointee = present.state
      endJump()
      return inspectorStep(.jump(toStep: recordedStep))
    }
    if inspection.present == nil {
      inspection.present = Inspection.Present(state: storage.pointer.pointee, step: stepCount)
    }
    storage.pointer.pointee = state
    let step = inspectorStep(.jump(toStep: recordedStep))
    inspection.history.jumped(at: step, to: recordedStep)
    return step
  }

  @usableFromInline
  @discardableResult
  package func resume() throws(StoreControlError) -> Int? {
    guard !isSending else { throw .busy }
    var step: Int?
    if let present = inspection.present as? Inspection.Present<State> {
      storage.pointer.pointee = present.state
      endJump()
      step = inspectorStep(.jump(toStep: present.step))
    }
    releaseHeld()
    return step
  }

  @usableFromInline
  package func continueFromHere() throws(StoreControlError) -> Int {
    guard !isSending else { throw .busy }
    guard let jumpedTo = inspection.history.jumpedTo else { throw .notJumped }
    let future = inspection.history.abandonedFuture
    endJump()
    let step = inspectorStep(.continueFrom(step: jumpedTo))
    // The future the store leaves: what the steps after the jumped state's origin started,
    // up to the present.
    if let future {
      end(takeEffects { future.contains($0.step) }, cause: .abandonedFuture, step: step)
      inspection.held.removeAll { held in
        guard let effectStep = (held as? Held)?.effectStep else { return false }
        return future.contains(effectStep)
      }
    }
    releaseHeld()
    return step
  }

  @usableFromInline
  package func sendFromInspector(_ action: Action) throws(StoreControlError) -> Int {
    guard !isSending else { throw .busy }
    let step = stepCount + 1
    _ = send(action, origin: .inspector)
    return step
  }

  // MARK: Holding

  /// Holds an action sent while paused (the reentrancy report still applies).
  @usableFromInline
  func hold(_ action: Action, origin: SendOrigin) -> StoreTask {
    if isSending, case .store = origin {
      reportReentrantSend(action)
    }
    var effectStep: Int?
    if case .effect(_, let id) = origin {
      effectStep = runningEffects.effect(id)?.step
    }
    inspection.held.append(
      Held(
        action: action, origin: actionOrigin(of: origin), group: origin.group,
        effectStep: effectStep))
    return StoreTask(group: nil)
  }

  /// Stops holding and reduces what was held, in order, each in a batch of its own with the
  /// origin and task group it was sent with.
  private func releaseHeld() {
    isHolding = false
    let held = inspection.held
    inspection.held.removeAll()
    for case let entry as Held in held {
      // A released action is in the state's hands again: a pause asked for by an observer
      // of one of these batches holds the rest.
      if isHolding {
        hold(entry)
        continue
      }
      bufferOrigin(entry.origin)
      firstAction.initialize(to: entry.action)
      _ = DependencyValues.$current.withValue(dependencies) {
        runBatch(group: entry.group)
      }
    }
  }

  private func hold(_ entry: Held) {
    inspection.held.append(entry)
  }

  /// Forgets the present and the jumps: the store is in the present again (or a new one).
  private func endJump() {
    inspection.present = nil
    inspection.history.end()
  }

  /// Numbers an inspector's step, tells the instrument, and tells observers the new state.
  private func inspectorStep(_ kind: InspectorStepKind) -> Int {
    stepCount += 1
    let step = stepCount
    instrument?.inspectorStep(step, kind: kind, state: storage.pointer.pointee)
    if observation.isObserved {
      notifyObservers()
    }
    return step
  }
}
