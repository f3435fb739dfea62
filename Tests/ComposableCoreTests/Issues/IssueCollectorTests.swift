import ComposableCore
import Foundation
import XCTest

final class IssueCollectorTests: XCTestCase {
  private static func issue(_ message: String) -> ReportedIssue {
    ReportedIssue(message: message, fileID: "F.swift", filePath: "/F.swift", line: 1, column: 1)
  }

  func testIsEmptyFollowsAppendsAndTakes() {
    let collector = IssueCollector()
    XCTAssertTrue(collector.isEmpty)
    report(Self.issue("a"), collector: collector)
    XCTAssertFalse(collector.isEmpty)
    report(Self.issue("b"), collector: collector)
    XCTAssertEqual(collector.take().map(\.message), ["a", "b"])
    XCTAssertTrue(collector.isEmpty)
    XCTAssertEqual(collector.take().map(\.message), [])
    report(Self.issue("c"), collector: collector)
    XCTAssertFalse(collector.isEmpty)
  }

  func testIsEmptySeesAppendsFromOtherThreads() {
    let collector = IssueCollector()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<50 {
        report(Self.issue("\(thread)-\(index)"), collector: collector)
        XCTAssertFalse(collector.isEmpty)
      }
    }
    XCTAssertFalse(collector.isEmpty)
    XCTAssertEqual(collector.take().count, 400)
    XCTAssertTrue(collector.isEmpty)
  }
}
