import ComposableCore
import LiveAttach
import Synchronization
import TraceKit

/// The live server's way into the store, without its types: it turns an inspector's command
/// into something the store can do (decoding a state or an action off the main actor), then
/// does it on the main actor through the store's control.
protocol LiveStoreHandle: Sendable {
  /// Whether a jump can restore a recorded state exactly.
  var canJump: Bool { get }
  /// Whether an action can be decoded from its JSON.
  var canSend: Bool { get }
  /// Checks and decodes a command (on the server's thread).
  func prepare(_ command: LiveCommand, history: LiveHistory) throws(LiveCommandFailure)
    -> PreparedCommand
  /// Does it (on the main actor): the store's status after it, and the step it made.
  @MainActor
  func perform(_ command: PreparedCommand) throws(LiveCommandFailure)
    -> (status: LiveStatus, step: Int?)
}

/// A command ready for the main actor: states and actions decoded into the app's types.
enum PreparedCommand: Sendable {
  case pause
  case resume
  case continueFromHere
  case status
  case jump(step: Int, state: any Sendable)
  case send(action: any Sendable)
}

/// Why a live store refused a command: the `code` and `message` of the `error` answer.
///
/// ```swift
/// LiveCommandFailure.notHeld(step: 3, first: 10, last: 40).message
/// // "step 3 is not in the history held in memory (steps 10…40)"
/// ```
struct LiveCommandFailure: Error, Sendable, Hashable {
  var code: String
  var message: String

  static func notHeld(step: Int, first: Int, last: Int) -> LiveCommandFailure {
    LiveCommandFailure(
      code: "notHeld",
      message: "step \(step) is not in the history held in memory (steps \(first)…\(last))")
  }

  init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  init(_ error: StoreControlError) {
    switch error {
    case .notJumped: code = "notJumped"
    case .busy: code = "busy"
    case .storeGone: code = "storeGone"
    }
    message = error.description
  }
}

/// The store handle of a recording whose feature has these types. Made where the types are
/// known; keeps the store's control weakly (the store owns the recording).
final class LiveStoreBridge<State: Encodable & Sendable, Action: Encodable & Sendable>:
  LiveStoreHandle
{
  let canJump: Bool
  let canSend: Bool
  private let control = MainActorWeak<any StoreControl<State, Action>>()

  /// `redacting`: a recording that replaces parts of the state cannot restore them.
  init(redacting: Bool) {
    canJump = State.self is any Decodable.Type && !redacting
    canSend = Action.self is any Decodable.Type
  }

  @MainActor
  func attach(_ control: any StoreControl<State, Action>) {
    self.control.value = control
  }

  func prepare(_ command: LiveCommand, history: LiveHistory) throws(LiveCommandFailure)
    -> PreparedCommand
  {
    switch command {
    case .pause: return .pause
    case .resume: return .resume
    case .continueFromHere: return .continueFromHere
    case .status: return .status
    case .jump(let step): return .jump(step: step, state: try state(at: step, in: history))
    case .send(let value): return .send(action: try action(value))
    }
  }

  @MainActor
  func perform(_ command: PreparedCommand) throws(LiveCommandFailure)
    -> (status: LiveStatus, step: Int?)
  {
    guard let control = control.value else {
      throw LiveCommandFailure(StoreControlError.storeGone)
    }
    var step: Int?
    do throws(StoreControlError) {
      switch command {
      case .pause:
        control.pause()
      case .resume:
        step = try control.resume()
      case .continueFromHere:
        step = try control.continueFromHere()
      case .status:
        break
      case .jump(let target, let state):
        guard let state = state as? State else { throw .storeGone }
        step = try control.jump(to: state, recordedStep: target)
      case .send(let action):
        guard let action = action as? Action else { throw .storeGone }
        step = try control.sendFromInspector(action)
      }
    } catch {
      throw LiveCommandFailure(error)
    }
    let status = control.controlStatus
    return (
      LiveStatus(
        lastStep: status.lastStep, isPaused: status.isPaused, jumpedTo: status.jumpedTo,
        presentStep: status.presentStep, heldActions: status.heldActions),
      step
    )
  }

  /// The recorded state after `step`, decoded, and checked to encode to the recorded hash: a
  /// jump restores exactly what was recorded, or nothing.
  private func state(at step: Int, in history: LiveHistory) throws(LiveCommandFailure) -> State {
    guard canJump, let type = State.self as? any Decodable.Type else {
      throw LiveCommandFailure(
        code: "cannotJump",
        message: State.self is any Decodable.Type
          ? "the recording redacts parts of the state, so no state can be restored"
          : "the state type \(String(reflecting: State.self)) is not Decodable")
    }
    let recorded: (state: TraceValue, hash: UInt64)
    do {
      recorded = try history.state(at: step)
    } catch {
      switch error {
      case .notHeld(let first, let last):
        throw .notHeld(step: step, first: first, last: last)
      case .patch(let reason):
        throw LiveCommandFailure(code: "notRebuilt", message: "the history is damaged: \(reason)")
      case .hashMismatch(let recorded, let rebuilt):
        throw LiveCommandFailure(
          code: "notRebuilt",
          message: "step \(step) rebuilt to hash \(hex(rebuilt)), not the recorded "
            + hex(recorded))
      }
    }
    let decoded: any Decodable
    do {
      decoded = try TraceValueDecoder().decode(type, from: recorded.state)
    } catch {
      throw LiveCommandFailure(
        code: "notDecodable",
        message: "the state after step \(step) does not decode: "
          + DecodingFailure.text(error, value: recorded.state))
    }
    guard let state = decoded as? State else {
      throw LiveCommandFailure(code: "notDecodable", message: "the state did not decode")
    }
    let reencoded = try? TraceValueEncoder().encode(state)
    guard let hash = reencoded?.stableHash, hash == recorded.hash else {
      throw LiveCommandFailure(
        code: "notExact",
        message: "the state after step \(step) decodes to a different state (hash "
          + "\(reencoded.map { hex($0.stableHash) } ?? "none"), recorded \(hex(recorded.hash))): "
          + "a jump would not show what was recorded")
    }
    return state
  }

  private func action(_ value: TraceValue) throws(LiveCommandFailure) -> Action {
    guard let type = Action.self as? any Decodable.Type else {
      throw LiveCommandFailure(
        code: "cannotSend",
        message: "the action type \(String(reflecting: Action.self)) is not Decodable")
    }
    let decoded: any Decodable
    do {
      decoded = try TraceValueDecoder().decode(type, from: value)
    } catch {
      throw LiveCommandFailure(
        code: "notDecodable",
        message: "the JSON is not a \(String(reflecting: Action.self)): "
          + DecodingFailure.text(error, value: value))
    }
    guard let action = decoded as? Action else {
      throw LiveCommandFailure(code: "notDecodable", message: "the action did not decode")
    }
    return action
  }
}

private func hex(_ hash: UInt64) -> String {
  let digits = String(hash, radix: 16)
  return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}

/// A weak reference read and written on the main actor, held by a `Sendable` object.
// Unchecked: `object` is only read and written through `value`, on the main actor.
final class MainActorWeak<Value>: @unchecked Sendable {
  private weak var object: AnyObject?

  init() {}

  @MainActor var value: Value? {
    get { object as? Value }
    set { object = newValue.map { $0 as AnyObject } }
  }
}
