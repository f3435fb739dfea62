/// What a chaos replay found: how many schedules it ran and those whose outcome differs from
/// the recording's, each with the seed that reproduces it.
///
/// ```swift
/// let report = try Replay(trace: "search.rewind", reducer: Search()).chaos(seed: 1, runs: 100)
/// print(report)
/// // Chaos replay: 100 schedules, 23 end differently from the recording (1 distinct shrunk
/// // order). The first:
/// // seed 0x… (run 3): 1 delivery moved; the state first differs after step 4
/// // …
/// ```
public struct ChaosReport: Sendable, Equatable, CustomStringConvertible {
  /// The seed the runs were drawn from.
  public var seed: UInt64
  /// How many schedules ran.
  public var runs: Int
  /// How many deliveries (actions sent by effects) the trace holds: what a schedule reorders.
  public var deliveries: Int
  /// The schedules whose final state differs from the recorded one, shrunk, in run order.
  public var differing: [ChaosSchedule]

  public init(seed: UInt64, runs: Int, deliveries: Int, differing: [ChaosSchedule]) {
    self.seed = seed
    self.runs = runs
    self.deliveries = deliveries
    self.differing = differing
  }

  /// Whether every schedule ended as the recording did.
  public var isClean: Bool { differing.isEmpty }

  public var description: String {
    let schedules = runs == 1 ? "1 schedule" : "\(runs) schedules"
    guard let first = differing.first else {
      let of = deliveries == 1 ? "1 delivery" : "\(deliveries) deliveries"
      return "Chaos replay: \(schedules) of \(of), "
        + "every one ends as the recording did."
    }
    var distinct: [[ChaosDelivery]] = []
    for schedule in differing where !distinct.contains(schedule.scheduled) {
      distinct.append(schedule.scheduled)
    }
    return "Chaos replay: \(schedules), \(differing.count) "
      + (differing.count == 1 ? "ends" : "end") + " differently from the recording ("
      + (distinct.count == 1
        ? "1 distinct shrunk order" : "\(distinct.count) distinct shrunk orders")
      + "). The first:\n" + first.description
  }
}
