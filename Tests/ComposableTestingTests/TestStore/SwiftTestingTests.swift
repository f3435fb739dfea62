import ComposableCore
import ComposableTesting
import Testing

@MainActor
@Suite struct SwiftTestingTests {
  @Test func testStoreWorksUnderSwiftTesting() async {
    let store = TestStore(initialState: Timer.State()) { Timer() }
    await store.send(.load)
    await store.receive(.loaded("hello")) { $0.message = "hello" }
  }

  @Test func issuesFailTheRunningSwiftTestingTest() {
    TestIssueReporter.install()
    withKnownIssue {
      reportIssue("Something is off")
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Something is off"]
    }
  }
}
