import Foundation
import Locking
import Synchronization

/// A runtime warning: a misuse the architecture notices and reports instead of crashing.
///
/// In an app the issue is printed to standard error; in a test it fails the running test
/// (ComposableTesting installs reporters for XCTest and Swift Testing); inside
/// `withIssueCollection` it is collected instead, so tests can assert the exact text.
public struct ReportedIssue: Sendable, Equatable, CustomStringConvertible {
  /// What went wrong and what to do.
  public var message: String
  /// The file (`Module/File.swift`) the issue points at.
  public var fileID: String
  /// The full path of that file.
  public var filePath: String
  /// The line the issue points at.
  public var line: UInt
  /// The column the issue points at.
  public var column: UInt
  /// The file path as the compiler gave it, when the issue was made from a source location:
  /// XCTest records a failure at a file only from a `StaticString`.
  package var staticFilePath: StaticString?

  /// Creates an issue value.
  public init(message: String, fileID: String, filePath: String, line: UInt, column: UInt) {
    self.message = message
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// An issue at a source location the compiler gave.
  package init(message: String, location: SourceLocation) {
    self.init(
      message: message,
      fileID: location.fileID,
      filePath: location.filePath,
      line: location.line,
      column: location.column
    )
    staticFilePath = location.staticFilePath
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.message == rhs.message && lhs.fileID == rhs.fileID && lhs.filePath == rhs.filePath
      && lhs.line == rhs.line && lhs.column == rhs.column
  }

  public var description: String {
    "\(fileID):\(line): \(message)"
  }
}

/// Receives the issues that are not collected.
public protocol IssueReporter: Sendable {
  /// Handles one issue (fail a test, print a warning …).
  func report(_ issue: ReportedIssue)
}

/// Where runtime issues go.
///
/// ```swift
/// IssueReporters.install(MyReporter())     // e.g. from a test-support module
/// reportIssue("Something is off")          // goes to MyReporter
/// ```
public enum IssueReporters {
  private static let installed = Lock<[any IssueReporter]>([])

  /// Adds a reporter. Issues go to the installed reporters instead of standard error.
  /// A second reporter of the same type replaces the first.
  public static func install(_ reporter: some IssueReporter) {
    installed.withLock { reporters in
      reporters.removeAll { type(of: $0) == type(of: reporter) }
      reporters.append(reporter)
    }
  }

  /// Removes the reporters of a type.
  public static func uninstall<R: IssueReporter>(_ type: R.Type) {
    installed.withLock { reporters in
      reporters.removeAll { Swift.type(of: $0) == type }
    }
  }

  static var current: [any IssueReporter] {
    installed.withLock { $0 }
  }

  @TaskLocal static var collector: IssueCollector?

  /// The collector of the `withIssueCollection` scope in force, if any: an object that
  /// outlives the scope (a test store) can report into the scope it was created in.
  package static var currentCollector: IssueCollector? { collector }

  /// Runs `body` with the issues it reports (on this thread and in tasks it creates)
  /// collected into `collector`: for code that decides later which of them to pass on.
  package static func collecting<R, E: Error>(
    into collector: IssueCollector, _ body: () throws(E) -> R
  ) throws(E) -> R {
    let result = $collector.withValue(collector) { () -> Result<R, E> in
      do throws(E) { return .success(try body()) } catch { return .failure(error) }
    }
    return try result.get()
  }
}

/// Reports a runtime issue: collected by `withIssueCollection`, else sent to the installed
/// reporters, else printed to standard error.
///
/// ```swift
/// reportIssue("A child action arrived while child state was nil.")
/// // prints: [Rewind] Feature.swift:12: A child action arrived while child state was nil.
/// ```
public func reportIssue(
  _ message: @autoclosure () -> String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  report(
    ReportedIssue(
      message: message(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  )
}

/// Reports an issue at a source location the core recorded earlier.
@usableFromInline
package func reportIssue(_ message: String, location: SourceLocation) {
  report(ReportedIssue(message: message, location: location))
}

/// Reports an already-built issue, into `collector` when given.
package func report(_ issue: ReportedIssue, collector: IssueCollector? = nil) {
  if let collector = collector ?? IssueReporters.collector {
    collector.append(issue)
    return
  }
  let reporters = IssueReporters.current
  if reporters.isEmpty {
    StandardErrorReporter().report(issue)
    if DependencyContext.default == .test {
      DynamicXCTFail.fail(issue)
    }
  } else {
    for reporter in reporters {
      reporter.report(issue)
    }
  }
}

/// Reports `issue` as in a scope whose collector is `collector` (nil: no collector, so the
/// installed reporters), whatever scope the caller is in.
package func report(_ issue: ReportedIssue, scopedTo collector: IssueCollector?) {
  IssueReporters.$collector.withValue(collector) { report(issue) }
}

/// Prints issues to standard error: the reporter of an app.
public struct StandardErrorReporter: IssueReporter {
  public init() {}

  public func report(_ issue: ReportedIssue) {
    let text = "[Rewind] \(issue.fileID):\(issue.line): \(issue.message)\n"
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// Collects the issues reported while `body` runs (in this task and in tasks it creates),
/// instead of failing the test: the Linux stand-in for `XCTExpectFailure`.
///
/// ```swift
/// let (_, issues) = await withIssueCollection {
///   await store.receive(.loaded, timeout: .milliseconds(10))
/// }
/// XCTAssertEqual(issues.map(\.message), ["Expected to receive an action …"])
/// ```
public func withIssueCollection<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> R
) async rethrows -> (R, [ReportedIssue]) {
  let collector = IssueCollector()
  let result = try await IssueReporters.$collector.withValue(collector) {
    try await body()
  }
  return (result, collector.issues)
}

/// Collects the issues reported while `body` runs (synchronous form).
public func withIssueCollection<R>(_ body: () throws -> R) rethrows -> (R, [ReportedIssue]) {
  let collector = IssueCollector()
  let result = try IssueReporters.$collector.withValue(collector) {
    try body()
  }
  return (result, collector.issues)
}

/// The issues collected in one `withIssueCollection` scope.
package final class IssueCollector: Sendable {
  private let storage = Lock<[ReportedIssue]>([])
  /// `storage`'s count, stored under its lock, so that `isEmpty` (asked after every replayed
  /// step) is one load, not a lock and an unlock (about 30 instructions; callgrind).
  private let count = Atomic<Int>(0)

  package init() {}

  func append(_ issue: ReportedIssue) {
    storage.withLock { issues in
      issues.append(issue)
      count.store(issues.count, ordering: .releasing)
    }
  }

  var issues: [ReportedIssue] {
    storage.withLock { $0 }
  }

  /// Whether no issue was collected (or every one was taken).
  package var isEmpty: Bool {
    count.load(ordering: .acquiring) == 0
  }

  /// The issues collected so far, removed from the collector.
  package func take() -> [ReportedIssue] {
    storage.withLock { issues in
      defer {
        issues = []
        count.store(0, ordering: .releasing)
      }
      return issues
    }
  }
}
