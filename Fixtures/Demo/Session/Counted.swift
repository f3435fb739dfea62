/// `1 step`, `2 steps`: a count and its noun, for the demo's one-line summaries.
func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
