import Foundation

/// One effect's lifecycle.
package struct EffectEntry: Sendable, Equatable {
  package enum Outcome: Sendable, Hashable {
    case running
    case finished
    case cancelled(reason: String, byStep: Int?)
    case unfinished
  }

  package var id: UUID
  package var startedByStep: Int
  package var cancelID: String?
  package var file: String?
  package var line: Int?
  package var startNanos: UInt64?
  package var endNanos: UInt64?
  package var outcome: Outcome
  package var sentSteps: [Int]

  package init(
    id: UUID, startedByStep: Int, cancelID: String? = nil, file: String? = nil, line: Int? = nil,
    startNanos: UInt64?, endNanos: UInt64?, outcome: Outcome, sentSteps: [Int]
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
  }

  /// How long it ran, when both ends are known.
  package var durationNanos: UInt64? {
    guard let start = startNanos, let end = endNanos, end >= start else { return nil }
    return end - start
  }
}
