import Foundation
import TraceKit

/// What the interactive view shows and where the person is, as a value: the step under the
/// cursor, the tab, the focused pane, what is expanded, marks, search, filters, the prompt
/// being typed. `OpenSession` changes it in response to keys; `OpenScreen` draws it.
///
/// ```swift
/// var model = OpenModel(cursor: 0)
/// model.tab = .state
/// model.expanded.insert(try TracePath(parsing: "todos"))
/// ```
package struct OpenModel: Sendable, Equatable {
  package enum Tab: Int, Sendable, CaseIterable {
    case diff, state, action, effects, tree

    package var title: String {
      switch self {
      case .diff: "Diff"
      case .state: "State"
      case .action: "Action"
      case .effects: "Effects"
      case .tree: "Tree"
      }
    }
  }

  package enum Focus: Sendable, Equatable {
    case steps, detail
  }

  /// The origins the steps list keeps.
  package enum OriginFilter: Sendable, Equatable {
    case all, user, effect

    package var next: OriginFilter {
      switch self {
      case .all: .user
      case .user: .effect
      case .effect: .all
      }
    }
  }

  /// A line of text being typed at the bottom of the screen, or a key being awaited.
  package struct Prompt: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
      /// `:` a step number.
      case goTo
      /// `/` a regular expression over action paths.
      case search
      /// `f` a state path: list only the steps that changed it.
      case pathFilter
      /// `m` then the letter of a mark to set.
      case setMark
      /// `'` then the letter of a mark to jump to.
      case jumpToMark
    }

    package var kind: Kind
    package var text = ""

    package var label: String {
      switch kind {
      case .goTo: ":"
      case .search: "/"
      case .pathFilter: "filter path: "
      case .setMark: "mark: "
      case .jumpToMark: "jump to mark: "
      }
    }

    /// Single-key prompts end with their first key.
    package var takesOneKey: Bool { kind == .setMark || kind == .jumpToMark }
  }

  /// Where a tab's cursor and scroll are.
  package struct DetailPosition: Sendable, Equatable {
    package var cursor = 0
    package var top = 0
  }

  /// An active search: the pattern and the action paths it matched.
  package struct Search: Sendable, Equatable {
    package var pattern: String
    package var actionPaths: Set<String>
  }

  /// The step under the cursor.
  package var cursor: Int
  /// The first step shown in the list.
  package var top: Int
  package var tab: Tab = .diff
  package var focus: Focus = .steps
  package var positions: [Tab: DetailPosition] = [:]
  /// The State tab's open containers; they stay open as the cursor moves.
  package var expanded: Set<TracePath> = []
  package var marks: [Character: Int] = [:]
  /// The mark set last: the first step of a two-step diff.
  package var lastMark: Character?
  /// Whether the Diff tab compares the last mark with the cursor instead of the step before.
  package var comparesWithMark = false
  package var search: Search?
  /// The path of `f`: the list keeps the steps that changed it (or a path inside or around it).
  package var pathFilter: String?
  package var originFilter: OriginFilter = .all
  package var prompt: Prompt?
  package var showsHelp = false
  /// A one-off message for the status line (an error, "no more hits").
  package var message: String?
  package var quits = false

  package init(cursor: Int) {
    self.cursor = cursor
    top = cursor
  }

  package subscript(position tab: Tab) -> DetailPosition {
    get { positions[tab] ?? DetailPosition() }
    set { positions[tab] = newValue }
  }

  /// The filter of the steps list (`from` and `to` left open).
  package var listFilter: StepFilter {
    var filter = StepFilter()
    filter.changedPath = pathFilter
    switch originFilter {
    case .all: break
    case .user: filter.origin = .user
    case .effect: filter.origin = .effect
    }
    return filter
  }

  package var isFiltered: Bool { pathFilter != nil || originFilter != .all }

  /// The first step of a two-step diff, when one is asked for.
  package var comparisonBase: Int? {
    guard comparesWithMark, let lastMark else { return nil }
    return marks[lastMark]
  }
}
