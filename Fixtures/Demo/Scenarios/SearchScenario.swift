import SearchFeature

/// A user who types words into a search field, a letter at a time, faster than the lookups
/// answer. With `bug`, the session runs the search that forgets to cancel the lookup in
/// flight: its recording looks right (the lookups answered in order), and `replay --chaos`
/// finds the order in which stale results win.
struct SearchScenario: Scenario {
  var bug: Search.Bug?

  var name: String { bug == nil ? "search" : "search-buggy" }

  var summary: String {
    bug == nil
      ? "Search: a lookup per keystroke, the one in flight cancelled"
      : "Search that forgets cancelInFlight: replay --chaos finds stale results winning"
  }

  /// Faster than a lookup (300 ms): the lookups overlap.
  var longestPause: Duration { .milliseconds(250) }

  func makeReducer() -> Search { Search(bug: bug) }

  func initialState() -> Search.State { Search.State() }

  func nextAction(in state: Search.State, random: inout DemoRandom) -> Search.Action? {
    // Finish the word being typed, a letter at a time; then start another.
    if let word = SearchClient.words.first(where: { $0.hasPrefix(state.query) }),
      !state.query.isEmpty, state.query.count < min(word.count, 4)
    {
      return .queryChanged(String(word.prefix(state.query.count + 1)))
    }
    let word = random.pick(SearchClient.words) ?? "swift"
    return .queryChanged(String(word.prefix(1)))
  }
}
