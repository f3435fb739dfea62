import TraceKit

/// The detail pane's last lines, so moving in them or redrawing does not read the trace again.
struct DetailCache {
  struct Key: Equatable {
    var tab: OpenModel.Tab
    var step: Int
    var base: Int?
    var width: Int
    var expanded: Set<TracePath>
    var treeCounts: [String: Int]?
    var lastStep: Int
  }

  private var entries: [(Key, [DetailLine])] = []

  func lines(for key: Key) -> [DetailLine]? {
    entries.first { $0.0 == key }?.1
  }

  /// Keeps one entry per tab: switching tabs and back costs nothing.
  mutating func store(_ lines: [DetailLine], for key: Key) {
    entries.removeAll { $0.0.tab == key.tab }
    entries.append((key, lines))
  }
}
