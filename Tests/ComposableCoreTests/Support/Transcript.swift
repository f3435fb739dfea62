import ComposableCore

/// Every fact a store's core tells its instrument, one line each: the test instrument of the
/// seam. Effects are named E1, E2, … in the order they started; a line is indented when it
/// happens inside the step above it (between the step's start and its end).
///
/// ```swift
/// let transcript = Transcript()
/// let store = Store(initialState: Feature.State()) { Feature().transcribed(into: transcript) }
/// store.send(.start)
/// print(transcript.text)
/// // store started
/// // step 1 from user: .start
/// // end of step 1
/// // E1 started by step 1: run [long]
/// ```
@MainActor
final class Transcript {
  private(set) var lines: [String] = []
  private var names: [EffectID: String] = [:]
  private var isInStep = false
  /// The control the store handed its instrument (an `any StoreControl<State, Action>`).
  weak var control: AnyObject?

  var text: String { lines.joined(separator: "\n") }

  func name(_ id: EffectID) -> String {
    if let name = names[id] { return name }
    let name = "E\(names.count + 1)"
    names[id] = name
    return name
  }

  func origin(_ origin: ActionOrigin) -> String {
    switch origin {
    case .effect(let id): name(id)
    case .send(let step): ".send of step \(step)"
    default: origin.description
    }
  }

  func append(_ line: String) {
    lines.append((isInStep ? "  " : "") + line)
  }

  func beginStep(_ line: String) {
    append(line)
    isInStep = true
  }

  func endStep(_ line: String) {
    isInStep = false
    append(line)
  }

  /// Forgets what was written so far (effect names are kept).
  func clear() {
    lines.removeAll()
  }
}

extension Reducer {
  /// Brings the store a `TranscriptInstrument` writing into `transcript`.
  func transcribed(into transcript: Transcript) -> Transcribed<Self> {
    Transcribed(base: self, transcript: transcript)
  }
}

/// The reducer `transcribed(into:)` returns: reduces with its base, and is found by the
/// store's core when the store is created.
struct Transcribed<Base: Reducer>: Reducer, StoreInstrumentProviding, ReducerNodeDescribing {
  let base: Base
  let transcript: Transcript

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    base.reduce(into: &state, action: action)
  }

  @MainActor
  func makeInstrument<State, Action: Sendable>(for store: InstrumentedStore)
    -> (any StoreInstrument<State, Action>)?
  {
    TranscriptInstrument<State, Action>(transcript: transcript, root: store.rootTypeName)
  }

  var reducerNode: ReducerNode { ReducerNode(kind: .instrument, typeName: "Transcript") }
  var childReducers: [any Reducer] { [base] }
}

/// Writes each fact into a transcript.
@MainActor
final class TranscriptInstrument<State, Action: Sendable>: StoreInstrument {
  let transcript: Transcript

  init(transcript: Transcript, root: String) {
    self.transcript = transcript
  }

  func storeStarted(state: borrowing State) {
    transcript.append("store started")
  }

  func stepBegan(_ step: Int, action: Action, origin: ActionOrigin) {
    transcript.beginStep(
      "step \(step) from \(transcript.origin(origin)): \(describeCase(action))")
  }

  func dependencyRead(_ read: DependencyValueRead) {
    transcript.append("read \(read)")
  }

  func stepEnded(
    _ step: Int, action: Action, state: UnsafePointer<State>, reducerStart: UInt64,
    reducerNanos: UInt64
  ) {
    transcript.endStep("end of step \(step)")
  }

  func effectStarted(_ launch: EffectLaunch) {
    var line = "\(transcript.name(launch.id)) started by step \(launch.step): \(launch.kind)"
    if let parent = launch.parent {
      line += " in \(transcript.name(parent))"
    }
    if !launch.cancelIDs.isEmpty {
      line += " [" + launch.cancelIDs.map(\.description).joined(separator: ", ") + "]"
    }
    transcript.append(line)
  }

  func effectFinished(_ id: EffectID) {
    transcript.append("\(transcript.name(id)) finished")
  }

  func effectsCancelled(_ ids: [EffectID], cause: EffectCancelCause, step: Int?) {
    let names = ids.map(transcript.name).joined(separator: ", ")
    let by = step.map { " in step \($0)" } ?? ""
    transcript.append("\(names) cancelled\(by): \(cause)")
  }

  func inspectorStep(_ step: Int, kind: InspectorStepKind, state: borrowing State) {
    transcript.append("step \(step) by the inspector: \(kind), state \(copy state)")
  }

  func storeControlled(by control: any StoreControl<State, Action>) {
    transcript.control = control
  }
}
