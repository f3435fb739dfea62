/// Every key of `inspector open`, grouped as the help overlay (`?`) lists them; the overlay
/// and docs/inspector.md are written from this one list.
///
/// ```swift
/// KeyBindings.groups[0].title  // "Move"
/// ```
package enum KeyBindings {
  package struct Binding: Sendable {
    package var keys: String
    package var action: String
  }

  package struct Group: Sendable {
    package var title: String
    package var bindings: [Binding]
  }

  package static let groups: [Group] = [
    Group(
      title: "Move",
      bindings: [
        Binding(keys: "↑ ↓  k j", action: "previous / next step (a line in the detail pane)"),
        Binding(keys: "PgUp PgDn", action: "a page up / down"),
        Binding(keys: "g G  Home End", action: "first / last step (top / bottom of the pane)"),
        Binding(keys: ":N Enter", action: "go to step N"),
      ]),
    Group(
      title: "Panes and tabs",
      bindings: [
        Binding(keys: "Tab S-Tab", action: "next / previous tab"),
        Binding(keys: "1 2 3 4 5", action: "Diff, State, Action, Effects, Tree"),
        Binding(keys: "→ l Enter", action: "into the detail pane"),
        Binding(keys: "← h Esc", action: "back to the steps"),
        Binding(
          keys: "Enter Space",
          action: "State: open / close the value; Effects: go to the step"),
        Binding(keys: "→ ←", action: "State: open / close the value under the cursor"),
      ]),
    Group(
      title: "Find",
      bindings: [
        Binding(keys: "/regex Enter", action: "search action paths"),
        Binding(keys: "n N", action: "next / previous hit"),
        Binding(keys: "[ ]", action: "previous / next step that changed the State cursor's path"),
        Binding(keys: "f path Enter", action: "list only steps that changed path (empty: all)"),
        Binding(keys: "o", action: "list steps from: all, user, effects"),
      ]),
    Group(
      title: "Marks and diffs",
      bindings: [
        Binding(keys: "m x", action: "set mark x on the step"),
        Binding(keys: "' x", action: "go to mark x"),
        Binding(keys: "d", action: "Diff: last mark against the cursor (again: step before)"),
      ]),
    Group(
      title: "A running app (open --attach)",
      bindings: [
        Binding(keys: "p", action: "pause the app: its actions are held"),
        Binding(keys: "J", action: "jump the app to the state after the step under the cursor"),
        Binding(keys: "r", action: "resume: back to the present, held actions reduced"),
        Binding(keys: "c", action: "continue from the jumped state (its future is cancelled)"),
      ]),
    Group(
      title: "Other",
      bindings: [
        Binding(keys: "?", action: "this help (any key closes it)"),
        Binding(keys: "q Ctrl-C", action: "quit"),
        Binding(
          keys: "mouse",
          action: "wheel scrolls; click picks a step, a tab, a line, a place on the timeline"),
      ]),
  ]
}
