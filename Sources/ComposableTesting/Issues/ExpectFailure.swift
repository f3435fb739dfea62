import ComposableCore
import XCTest

/// Runs `body` expecting it to report issues (the stand-in for `XCTExpectFailure`, which
/// Linux's XCTest lacks); fails the test if it reports none. Returns the issues so the test
/// can compare their text.
///
/// ```swift
/// let issues = await expectIssues {
///   await store.send(.plus)   // no assertion closure: fails, captured here
/// }
/// XCTAssertEqual(issues.map(\.message), ["State was not expected to change, …"])
/// ```
@discardableResult
public func expectIssues(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async rethrows -> [ReportedIssue] {
  TestIssueReporter.install()
  let (_, issues) = try await withIssueCollection(body)
  if issues.isEmpty {
    reportIssue(
      "Expected an issue to be reported, but none was.",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
  return issues
}
