import Foundation

/// One effect: which step started it, where, how it ended and which steps it sent.
///
/// ```swift
/// let effect = EffectRecord(id: id, startedByStep: 3, cancelID: "timer", startNanos: 9_000)
/// print(effect.outcome)  // running
/// ```
public struct EffectRecord: Sendable, Hashable {
  // The optional properties are spelled `Optional<…>`, not `T?`: a `T?` variable is given nil
  // before the initializer assigns it, and then the optimized initializer builds the record in
  // a local and copies it out, its texts and sends retained and released again (about 270
  // instructions an effect on the recorder's trace stage).
  public var id: UUID
  /// The step whose reducer returned the effect.
  public var startedByStep: Int
  /// A description of the cancellation id, if the effect is cancellable.
  public var cancelID: Optional<String>
  public var file: Optional<String>
  public var line: Optional<Int>
  public var startNanos: Optional<UInt64>
  public var endNanos: Optional<UInt64>
  public var outcome: EffectOutcome
  /// The steps whose actions this effect sent, in order.
  public var sentSteps: [Int]
  /// What the store ran: `run` (an `Effect.run`) or `concatenation` (the task running a
  /// concatenation's parts after its first asynchronous one); nil in traces that predate it.
  public var kind: Optional<String>
  /// The concatenation whose task started this effect, if one did.
  public var parentID: Optional<UUID>
  /// How many steps had been reduced when the effect started (a concatenation's later part
  /// starts between steps); nil in traces that predate it.
  public var startedAfterStep: Optional<Int>
  /// How many steps had been reduced when the effect ended (an effect cancelled while step n
  /// is reduced ended after n - 1); nil while it runs and in traces that predate it.
  public var endedAfterStep: Optional<Int>

  /// Inlinable: the caller stores the fields where it builds the record, rather than passing
  /// thirteen arguments, some on the stack, to a call that stores them.
  @inlinable
  public init(
    id: UUID, startedByStep: Int, cancelID: String? = nil, file: String? = nil,
    line: Int? = nil, startNanos: UInt64? = nil, endNanos: UInt64? = nil,
    outcome: EffectOutcome = .running, sentSteps: [Int] = [], kind: String? = nil,
    parentID: UUID? = nil, startedAfterStep: Int? = nil, endedAfterStep: Int? = nil
  ) {
    self.id = id
    self.startedByStep = startedByStep
    self.cancelID = cancelID
    self.file = file
    self.line = line
    self.startNanos = startNanos
    self.endNanos = endNanos
    self.outcome = outcome
    self.sentSteps = sentSteps
    self.kind = kind
    self.parentID = parentID
    self.startedAfterStep = startedAfterStep
    self.endedAfterStep = endedAfterStep
  }
}

extension EffectRecord {
  /// `kind` as the static text of a kind the store runs (`run`, `concatenation`); nil for any
  /// other text. The writer binds it where it is; the effect table's check refuses the others.
  package static func knownKindText(_ kind: String) -> StaticString? {
    switch kind {
    case "run": "run"
    case "concatenation": "concatenation"
    default: nil
    }
  }
}
