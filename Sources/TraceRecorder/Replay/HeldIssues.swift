import ComposableCore

/// The runtime issues a replay's reducer reports, held until the serial replay (checking
/// each step's state before reducing the next) is known to reach their step.
///
/// The reducer runs up to a few runs of steps ahead of the state check, so after a state
/// that differs it reduces steps the serial replay never reduced, on a state that is
/// already wrong, and those often report issues (an action for a missing element). The
/// issues of the `order`th replayed step are passed on once every state before it matched;
/// the rest are dropped when the replay stops. The differing step's own issues are passed
/// on: the serial replay reduced it before checking its state.
///
/// ```swift
/// var issues = HeldIssues(passingTo: IssueReporters.currentCollector)
/// IssueReporters.collecting(into: issues.collector) { reduceStep0() }
/// issues.mark(0)
/// issues.release(through: 0)  // step 0's issues go to the reporters or collector, in order
/// ```
struct HeldIssues {
  /// Where the reducer's issues go while the replay runs.
  let collector = IssueCollector()
  /// The collector in force where the replay was started (nil: the installed reporters).
  private let outer: IssueCollector?
  /// Issues not yet passed on, in the order they were reported, each with its step's order.
  private var held: [(order: Int, issue: ReportedIssue)] = []

  init(passingTo outer: IssueCollector?) {
    self.outer = outer
  }

  /// Whether no issue waits.
  var isEmpty: Bool { held.isEmpty }

  /// Takes the issues reported since the last call as the `order`th step's. One atomic load
  /// and no array when there are none.
  mutating func mark(_ order: Int) {
    guard !collector.isEmpty else { return }
    held += collector.take().map { (order, $0) }
  }

  /// Passes on, in order, the held issues of the steps up to the `order`th.
  mutating func release(through order: Int) {
    let end = held.firstIndex { $0.order > order } ?? held.endIndex
    for index in 0..<end { report(held[index].issue, scopedTo: outer) }
    held.removeFirst(end)
  }
}
