import Foundation
import TraceKit
import XCTest

@testable import InspectorKit

final class EffectRenderingTests: XCTestCase {
  let effects = [
    EffectRecord(
      id: UUID(uuidString: "7E1A0C11-0000-4000-8000-00000000000A")!, startedByStep: 5,
      cancelID: "child.timer", file: "/app/Child.swift", line: 42, startNanos: 0,
      endNanos: 750_000_000, outcome: .cancelled(reason: "ifLet", byStep: 11),
      sentSteps: [6, 7, 8, 9]),
    EffectRecord(
      id: UUID(uuidString: "4B0D2E77-0000-4000-8000-00000000000B")!, startedByStep: 8,
      startNanos: 500_000_000, endNanos: nil, outcome: .running, sentSteps: []),
  ]

  func testTableShowsEveryColumn() {
    var out = ""
    EffectTable(width: 100).render(effects, into: &out)
    XCTAssertEqual(
      out.split(separator: "\n"),
      [
        "EFFECT    STEP  CANCEL ID    OUTCOME                     DURATION  SENT           SOURCE",
        "7e1a0c11     5  child.timer  cancelled (ifLet, step 11)  750ms     4: 6, 7, 8, …  "
          + "Child.swift:42",
        "4b0d2e77     8  -            running                     -         0              -",
      ])
  }

  func testTableShrinksFreeTextColumnsToTheWidth() {
    var out = ""
    EffectTable(width: 70).render(effects, into: &out)
    XCTAssertEqual(
      out,
      """
      EFFECT    STEP  CANCEL ID  OUTCOME                     DURATION  SENT
      7e1a0c11     5  child.ti…  cancelled (ifLet, step 11)  750ms     4: 6…
      4b0d2e77     8  -          running                     -         0

      """)
  }

  func testTimelinePlacesStartAndEndOnASharedAxis() {
    var out = ""
    EffectTimeline(width: 60).render(effects, end: 1_000_000_000, into: &out)
    XCTAssertEqual(
      out,
      """
      EFFECT     STEP  0            1s
      7e1a0c11      5  ├─────────┤      cancelled (ifLet, step 11)
      4b0d2e77      8         ├──────▶  running

      """)
  }
}
