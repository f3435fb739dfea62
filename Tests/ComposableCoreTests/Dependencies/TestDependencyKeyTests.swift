import ComposableCore
import XCTest

private struct Greeter: Sendable {
  var greet: @Sendable () -> String
}

/// Declared where only the test and preview values are known (an interface module).
private enum GreeterKey: TestDependencyKey {
  static let testValue = Greeter { "test" }
  static let previewValue = Greeter { "preview" }
}

/// A test-only key without a preview value of its own.
private enum PlainKey: TestDependencyKey {
  static let testValue = Greeter { "plain test" }
}

/// A full key without a preview value: previews use the live value.
private enum LiveKey: DependencyKey {
  static let liveValue = Greeter { "live" }
  static let testValue = Greeter { "live key test" }
}

extension DependencyValues {
  fileprivate var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
  fileprivate var plain: Greeter { self[PlainKey.self] }
  fileprivate var liveGreeter: Greeter { self[LiveKey.self] }
}

final class TestDependencyKeyTests: XCTestCase {
  func testATestDependencyKeyGivesItsTestAndPreviewValues() {
    XCTAssertEqual(DependencyValues(context: .test).greeter.greet(), "test")
    XCTAssertEqual(DependencyValues(context: .preview).greeter.greet(), "preview")
    XCTAssertEqual(DependencyValues(context: .preview).plain.greet(), "plain test")
  }

  func testPreviewsOfADependencyKeyUseItsLiveValue() {
    XCTAssertEqual(DependencyValues(context: .preview).liveGreeter.greet(), "live")
    XCTAssertEqual(DependencyValues(context: .test).liveGreeter.greet(), "live key test")
  }

  func testALiveReadOfATestDependencyKeyIsReportedAndUsesTheTestValue() {
    let (greeting, issues) = withIssueCollection {
      DependencyValues(context: .live).greeter.greet()
    }
    XCTAssertEqual(greeting, "test")
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(
      issues.first?.message.hasPrefix(
        "@Dependency(GreeterKey.self) has no live implementation, but was accessed from a live "
          + "context.") ?? false,
      issues.first?.message ?? "")
  }

  func testAnOverrideWinsInEveryContext() {
    for context in [DependencyContext.live, .preview, .test] {
      var values = DependencyValues(context: context)
      values.greeter = Greeter { "override" }
      XCTAssertEqual(values.greeter.greet(), "override")
    }
  }
}
