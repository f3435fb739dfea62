/// Where each part of `inspector open` goes on a screen of a given size: the header row (the
/// steps title and the tabs), the body (the steps on the left, the detail pane on the right),
/// the timeline and the status line.
///
/// ```swift
/// let layout = OpenLayout(width: 120, height: 40)
/// layout.stepsWidth   // 54
/// layout.bodyHeight   // 37
/// layout.timelineRow  // 38
/// ```
package struct OpenLayout: Sendable, Equatable {
  package static let minimumWidth = 50
  package static let minimumHeight = 8

  package let width: Int
  package let height: Int

  package init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  package var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

  /// Nine twentieths of the width, between 30 and 60 columns.
  package var stepsWidth: Int { min(60, max(30, width * 9 / 20)) }
  /// The first column of the detail pane (after the separator).
  package var detailColumn: Int { stepsWidth + 1 }
  package var detailWidth: Int { max(0, width - detailColumn) }
  package var bodyHeight: Int { max(1, height - 3) }
  package var timelineRow: Int { height - 2 }
  package var statusRow: Int { height - 1 }

  /// The tab labels on the header row: where each starts and ends.
  package var tabs: [(tab: OpenModel.Tab, label: String, columns: Range<Int>)] {
    var column = detailColumn + 1
    var result: [(OpenModel.Tab, String, Range<Int>)] = []
    for tab in OpenModel.Tab.allCases {
      let label = " \(tab.rawValue + 1) \(tab.title) "
      result.append((tab, label, column..<(column + label.count)))
      column += label.count
    }
    return result
  }

  package func tab(atColumn column: Int) -> OpenModel.Tab? {
    tabs.first { $0.columns.contains(column) }?.tab
  }
}
