import ComposableCore
import Foundation
import Locking
import Testing

/// Shows what a `TestStore` in `.off(showSkippedAssertions: true)` skipped, without failing the
/// test: as a known issue in a Swift Testing test, as a note on standard error under XCTest
/// (which has no expected failures on Linux), or into a collector a test installed.
///
/// ```swift
/// // note: Feature.swift:12: Skipped assertions: …
/// //
/// // A state change does not match expectation: …
/// ```
enum SkippedAssertions {
  /// Collects the skipped assertions shown while it is in force (for testing the test store).
  @TaskLocal static var collector: Collector?

  /// The skipped assertions shown in one scope.
  final class Collector: Sendable {
    private let storage = Lock<[ReportedIssue]>([])

    func append(_ issue: ReportedIssue) {
      storage.withLock { $0.append(issue) }
    }

    var issues: [ReportedIssue] {
      storage.withLock { $0 }
    }
  }

  static func show(_ issue: ReportedIssue, collector: Collector?) {
    if let collector = collector ?? Self.collector {
      collector.append(issue)
    } else if Test.current != nil {
      withKnownIssue(isIntermittent: true) {
        TestIssueReporter.record(issue)
      }
    } else {
      let text = "note: \(issue.fileID):\(issue.line): \(issue.message)\n"
      FileHandle.standardError.write(Data(text.utf8))
    }
  }
}
