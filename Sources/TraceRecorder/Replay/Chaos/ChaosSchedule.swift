import TraceKit

/// An order of the effects' deliveries that the recording allows and whose outcome differs
/// from the recording's: the seed that reproduces it, how many deliveries it moves (shrunk to
/// as few as still change the outcome), the first step whose state differs, the two orders
/// side by side where they differ, and the final states.
///
/// ```swift
/// print(schedule)
/// // seed 0x3f0a5c71d22e9b04 (run 7): 1 delivery moved; the state first differs after step 4
/// //   step  recorded                            this order
/// //      3  effect of step 1  searchResponse    effect of step 2  searchResponse
/// //      4  effect of step 2  searchResponse    effect of step 1  searchResponse
/// //   …
/// ```
public struct ChaosSchedule: Sendable, Equatable, CustomStringConvertible {
  /// `Replay(trace:reducer:).chaos(seed: seed, runs: 1)` runs this schedule again.
  public var seed: UInt64
  /// The run of `chaos(seed:runs:)` that found it (0-based).
  public var run: Int
  /// How many deliveries the shrunk schedule moves from their recorded place.
  public var movedDeliveries: Int
  /// The first step whose state, in this order, differs from the recorded step's.
  public var firstDifferingStep: Int
  /// The recorded order, from a little before the first place the orders differ to a little
  /// after the last.
  public var recorded: [ChaosDelivery]
  /// This schedule's order over the same stretch.
  public var scheduled: [ChaosDelivery]
  /// The recorded final state and this schedule's.
  public var recordedFinal: TraceValue
  public var scheduledFinal: TraceValue
  /// What turns the recorded final state into this schedule's.
  public var finalChanges: [TraceChange]

  public init(
    seed: UInt64, run: Int, movedDeliveries: Int, firstDifferingStep: Int,
    recorded: [ChaosDelivery], scheduled: [ChaosDelivery], recordedFinal: TraceValue,
    scheduledFinal: TraceValue, finalChanges: [TraceChange]
  ) {
    self.seed = seed
    self.run = run
    self.movedDeliveries = movedDeliveries
    self.firstDifferingStep = firstDifferingStep
    self.recorded = recorded
    self.scheduled = scheduled
    self.recordedFinal = recordedFinal
    self.scheduledFinal = scheduledFinal
    self.finalChanges = finalChanges
  }

  /// The seed as hex, as the report writes it.
  public var seedText: String {
    let hex = String(seed, radix: 16)
    return "0x" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  public var description: String {
    var text =
      "seed \(seedText) (run \(run)): "
      + (movedDeliveries == 1 ? "1 delivery moved" : "\(movedDeliveries) deliveries moved")
      + "; the state first differs after step \(firstDifferingStep)\n"
    let numbers = (recorded + scheduled).map { String($0.step).count }.max() ?? 1
    func row(_ delivery: ChaosDelivery) -> String {
      pad(String(delivery.step), numbers, left: true) + "  \(delivery.origin)  "
        + delivery.actionPath + (delivery.isMoved ? "  (moved)" : "")
    }
    let left = recorded.map(row)
    let width = max("recorded".count, left.map(\.count).max() ?? 0)
    text += "  " + pad("recorded", width) + "    this order\n"
    for index in 0..<max(recorded.count, scheduled.count) {
      let leftText = index < left.count ? left[index] : ""
      let rightText = index < scheduled.count ? row(scheduled[index]) : ""
      text += "  " + pad(leftText, width) + "    " + rightText + "\n"
    }
    text += "  final state (recorded: -, this order: +):\n"
    text += DiffRenderer().text(from: recordedFinal, to: scheduledFinal)
      .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
      .joined(separator: "\n") + "\n"
    text += "  reproduce: chaos(seed: \(seedText), runs: 1)"
    return text
  }

  private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }
}
