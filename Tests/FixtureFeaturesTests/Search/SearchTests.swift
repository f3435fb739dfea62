import ComposableCore
import ComposableTesting
import Foundation
import SearchFeature
import XCTest

@MainActor
final class SearchTests: XCTestCase {
  func testANewQueryCancelsTheLookupInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.searchClient = .immediate
      $0.continuousClock = clock
      $0.searchClient = .live
    }
    await store.send(.queryChanged("s")) {
      $0.query = "s"
      $0.isSearching = true
    }
    await clock.waitForSleepers(1)
    await store.send(.queryChanged("sw")) { $0.query = "sw" }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    await store.receive(
      .searchResponse(query: "sw", .success(["swallow", "swift", "swim"]))
    ) {
      $0.isSearching = false
      $0.resultsQuery = "sw"
      $0.results = ["swallow", "swift", "swim"]
    }
  }

  func testTheBugLetsAStaleLookupAnswerAfterANewerOne() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search(bug: .forgetsCancelInFlight)
    } withDependencies: {
      $0.searchClient = .immediate
      // The older lookup is the slower one: it waits for the clock, the newer answers at once.
      $0.searchClient = SearchClient { query in
        if query == "s" { try await clock.sleep(for: .seconds(1)) }
        return SearchClient.matches(query)
      }
    }
    await store.send(.queryChanged("s")) {
      $0.query = "s"
      $0.isSearching = true
    }
    await clock.waitForSleepers(1)
    await store.send(.queryChanged("sw")) { $0.query = "sw" }
    await store.receive(
      .searchResponse(query: "sw", .success(["swallow", "swift", "swim"]))
    ) {
      $0.isSearching = false
      $0.resultsQuery = "sw"
      $0.results = ["swallow", "swift", "swim"]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.searchResponse(query: "s", .success(SearchClient.matches("s")))) {
      $0.resultsQuery = "s"
      $0.results = SearchClient.matches("s")
    }
  }

  func testClearingTheQueryCancelsTheLookupAndClearsTheResults() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State(resultsQuery: "t", results: ["table"])) {
      Search()
    } withDependencies: {
      $0.searchClient = .immediate
      $0.continuousClock = clock
      $0.searchClient = .live
    }
    await store.send(.queryChanged("ti")) {
      $0.query = "ti"
      $0.isSearching = true
    }
    await store.send(.queryChanged("")) {
      $0.query = ""
      $0.isSearching = false
      $0.resultsQuery = ""
      $0.results = []
    }
  }
}
