import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Redaction fails closed: a path that does not parse is refused before anything is recorded,
/// and one that never matched is reported when the recording finishes and kept in the trace.
@MainActor
final class RecorderRedactionTests: XCTestCase {
  func testAPathThatDoesNotParseIsRefusedAndNothingIsRecorded() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("refused.rewind")
    XCTAssertThrowsError(
      try Recorder(
        path: path, configuration: .init(redactedStatePaths: ["account.password", "passwrd["]))
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "Recorder configuration: redactedStatePaths[1] is not a state path: invalid path "
          + #""passwrd[" at column 9: expected '"', a digit or 'id:' after '['"#)
    }
    XCTAssertThrowsError(
      try Recorder(path: path, configuration: .init(redactedActionPaths: ["login..password"]))
    ) { error in
      XCTAssertEqual(
        (error as? RecorderConfigurationError)?.setting, "redactedActionPaths[0]")
    }
    XCTAssertThrowsError(try Recorder(path: path, configuration: .init(keyframeInterval: 0))) {
      XCTAssertEqual(
        "\($0)", "Recorder configuration: keyframeInterval is 0; it must be at least 1")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testPathsThatNeverMatchedAreReportedAtFinishAndShownByInfo() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("unmatched.rewind")
    let clock = TestClock()
    let recorder = try Recorder(
      path: path,
      configuration: .init(
        redactedStatePaths: ["password", "passwrd"], redactedActionPaths: ["search", "login"]))
    let store = Store(
      initialState: RecordedFeature.State(),
      reducer: { RecordedFeature().recording(to: recorder) },
      withDependencies: recordedDependencies(clock: clock))
    let beforeTheEnd = await collectingIssues {
      store.send(.search("secret query"))
      store.send(.openDetail)
    }
    XCTAssertEqual(beforeTheEnd, [], "nothing is known before the end")
    let atTheEnd = await collectingIssues { await recorder.waitUntilFinished() }
    XCTAssertEqual(
      atTheEnd,
      [
        "Recording to \(path): redaction paths matched nothing in the whole recording, so "
          + #"nothing was redacted there: redactedStatePaths[1] "passwrd", "#
          + #"redactedActionPaths[1] "login"."#
      ])
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try reader.info().metadata.extra["rewind.redactionUnmatched"], "state passwrd, action login")
    let info = try BuiltProducts.run("inspector", ["info", path], in: directory.url)
    XCTAssertEqual(info.status, 0)
    XCTAssertTrue(
      info.out.contains(#""rewind.redactionUnmatched"  "state passwrd, action login""# + "\n"),
      info.out)
    // What matched is redacted.
    XCTAssertFalse(try reader.state(at: 2).jsonString.contains("hunter2"))
  }
}
