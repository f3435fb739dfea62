import Foundation
import HomeFeature

/// A parent who checks the children's day, renames a child, and adds schedules — and
/// sometimes closes a sheet while it saves.
struct HomeScenario: Scenario {
  var name: String { "home" }
  var summary: String { "Home: children, schedules, AI briefing, two presented sheets" }

  static let nicknames = ["Woo", "Wooly", "Yuni", "Sunny", "Bean"]
  static let titles = ["Dentist", "Art class", "Soccer", "Library", "Playdate"]

  func makeReducer() -> Home { Home() }

  func initialState() -> Home.State { Home.State() }

  func openingActions() -> [Home.Action] { [.onAppear] }

  func nextAction(in state: Home.State, random: inout DemoRandom) -> Home.Action? {
    if let detail = state.childDetail {
      guard !detail.isSaving else {
        return random.chance(percent: 30) ? .childDetail(.dismiss) : nil
      }
      let nickname = random.pick(Self.nicknames) ?? "Woo"
      return random.weighted([
        (40, .childDetail(.presented(.nicknameChanged(nickname)))),
        (40, .childDetail(.presented(.saveTapped))),
        (20, .childDetail(.dismiss)),
      ])
    }
    if let add = state.scheduleAdd {
      guard !add.isSaving else {
        return random.chance(percent: 30) ? .scheduleAdd(.dismiss) : nil
      }
      let title = random.pick(Self.titles) ?? "Dentist"
      return random.weighted([
        (add.title.isEmpty ? 60 : 15, .scheduleAdd(.presented(.titleChanged(title)))),
        (20, .scheduleAdd(.presented(.startMoved(minutes: 30 * random.int(in: -2...6))))),
        (add.title.isEmpty ? 5 : 45, .scheduleAdd(.presented(.saveTapped))),
        (10, .scheduleAdd(.dismiss)),
      ])
    }
    guard let child = random.pick(state.children.elements) else { return nil }
    return random.weighted([
      (30, .childSelected(child.id)),
      (25, .childCardTapped(child.id)),
      (30, .addScheduleTapped),
      (5, .onAppear),
    ])
  }
}
