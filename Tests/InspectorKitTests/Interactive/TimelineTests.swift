import TraceKit
import XCTest

@testable import InspectorKit

final class TimelineTests: XCTestCase {
  func testColumnsAndStepsMapBothWays() {
    for (width, last) in [(120, 33), (120, 1_000_000), (80, 79), (80, 80), (7, 12)] {
      for column in 0..<width {
        let steps = Timeline.steps(ofColumn: column, width: width, lastStep: last)
        let first = Timeline.column(ofStep: steps.lowerBound, width: width, lastStep: last)
        XCTAssertLessThanOrEqual(first, column, "\(width) \(last) \(column)")
        XCTAssertEqual(
          Timeline.step(atColumn: first, width: width, lastStep: last), steps.lowerBound)
      }
      if last + 1 >= width {
        XCTAssertEqual(Timeline.column(ofStep: last, width: width, lastStep: last), width - 1)
      }
    }
  }

  func testDamagedNumbersDoNotOverflow() {
    let timeline = Timeline(width: 80, lastStep: .max)
    var grid = ScreenGrid(width: 80, height: 1)
    timeline.draw(
      into: &grid, row: 0, cursor: .max, marks: ["a": .max - 5], hits: nil,
      gaps: [TraceGap(afterStep: .max - 3, dropped: .max)], keyframeInterval: .max)
    XCTAssertEqual(grid.lines[0].count, 80)
    XCTAssertNil(Timeline.dropped(TraceGap(afterStep: .max, dropped: 1)))
  }
}
