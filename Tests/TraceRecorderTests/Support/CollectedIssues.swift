import ComposableCore
import ComposableTesting

/// Runs `body` with the issues it reports collected instead of failing the test, and returns
/// their messages. Only this reporter sees them: a `TestStore` elsewhere in the run installs
/// `TestIssueReporter`, which would fail the test for the report it expects.
///
/// ```swift
/// let issues = try await collectingIssues { recorder.finish(); await … }
/// // ["Recording to …: redaction paths matched nothing …"]
/// ```
@MainActor
func collectingIssues(_ body: () async throws -> Void) async rethrows -> [String] {
  let reporter = CollectingReporter()
  IssueReporters.uninstall(TestIssueReporter.self)
  IssueReporters.install(reporter)
  defer {
    IssueReporters.uninstall(CollectingReporter.self)
    TestIssueReporter.install()
  }
  try await body()
  return reporter.issues.withLock { $0 }
}
