import ComposableCore
import Testing
import XCTest

/// Fails the running test with each reported issue: a Swift Testing issue inside a Swift
/// Testing test, an XCTest failure otherwise. `TestStore` installs it.
///
/// ```swift
/// TestIssueReporter.install()    // in a test that uses plain stores
/// ```
public struct TestIssueReporter: IssueReporter {
  /// Makes runtime issues fail tests from now on.
  public static func install() {
    IssueReporters.install(TestIssueReporter())
  }

  public func report(_ issue: ReportedIssue) {
    if Test.current != nil {
      Self.record(issue)
    } else if let file = issue.staticFilePath {
      // At the line the issue points at (a test's `send`/`receive`), not at this one.
      XCTFail(issue.message, file: file, line: issue.line)
    } else {
      XCTFail("\(issue.fileID):\(issue.line): \(issue.message)")
    }
  }

  /// Records an issue in the running Swift Testing test, at the issue's location.
  static func record(_ issue: ReportedIssue) {
    Issue.record(
      Comment(rawValue: issue.message),
      sourceLocation: Testing.SourceLocation(
        fileID: issue.fileID,
        filePath: issue.filePath,
        line: Int(issue.line),
        column: Int(issue.column)
      )
    )
  }
}
