/// The keys of the `open.*` cases: a seeded mix of what a person does in `inspector open` on a
/// long trace — moving a step and a page, the ends, `:N` far away, a search and its hits
/// (`n`/`N`), the tabs, `[`/`]` — the same keys in every run.
///
/// ```swift
/// OpenKeyScript.keys(count: 6, lastStep: 1_000_000, seed: 7).map(\.label)
/// // ["j", "PgDn", ":", "5", …, "Enter", "G"]
/// ```
enum OpenKeyScript {
  struct Key: Sendable {
    /// What the terminal sends.
    var bytes: String
    /// How the report names it.
    var label: String
    /// Whether the key starts work the view does while idle (counting search hits, the
    /// tree's counts): the next key waits until that is drawn.
    var startsIdleWork = false
  }

  /// At least `count` keys (a `:N` or a search is typed whole, one key per character).
  static func keys(count: Int, lastStep: Int, seed: UInt64) -> [Key] {
    var random = SplitMix64(seed: seed)
    // The search comes first so that n and N have hits to go to.
    var keys = typed("/reset", label: "/reset")
    keys[keys.count - 1].startsIdleWork = true
    let simple: [Key] = [
      Key(bytes: "j", label: "j"), Key(bytes: "k", label: "k"),
      Key(bytes: "\u{1B}[6~", label: "PgDn"), Key(bytes: "\u{1B}[5~", label: "PgUp"),
      Key(bytes: "G", label: "G"), Key(bytes: "g", label: "g"),
      Key(bytes: "n", label: "n"), Key(bytes: "N", label: "N"),
      Key(bytes: "\t", label: "Tab"), Key(bytes: "1", label: "1 (Diff)"),
      Key(bytes: "2", label: "2 (State)"), Key(bytes: "3", label: "3 (Action)"),
      Key(bytes: "4", label: "4 (Effects)"), Key(bytes: "]", label: "]"),
      Key(bytes: "[", label: "["),
    ]
    while keys.count < count {
      switch random.next() % 10 {
      case 0:
        let step = Int.random(in: 0...max(0, lastStep), using: &random)
        keys += typed(":" + String(step), label: ":N")
      default:
        keys.append(simple[Int(random.next() % UInt64(simple.count))])
      }
    }
    return keys
  }

  /// A prompt typed character by character, then Enter.
  static func typed(_ text: String, label: String) -> [Key] {
    text.map { Key(bytes: String($0), label: label + " (typing)") }
      + [Key(bytes: "\r", label: label + " Enter")]
  }
}
