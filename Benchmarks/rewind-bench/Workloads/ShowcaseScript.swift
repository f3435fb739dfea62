import Foundation
import FixtureSupport
import ShowcaseFeature

/// The composed workload: the `Showcase` fixture (a counter and a todo list in `Scope`s, the
/// list's rows in `forEach`, a presented search, an `onChange`) driven by a fixed cycle of
/// taps in every part of it, so every run records the same trace. Toggles and searches start
/// effects that cancel the one in flight.
///
/// ```swift
/// ShowcaseScript.action(at: 1)  // .counter(.plus)
/// ShowcaseScript.action(at: 5)  // .search(.presented(.queryChanged("s")))
/// ```
enum ShowcaseScript {
  /// The sample todos of the workload's initial state.
  static let todoCount = 8

  static func action(at step: Int) -> Showcase.Action {
    let round = step / cycle
    let todo = UUID(fixture: UInt64(1 + (step + round) % todoCount), namespace: 0x7D)
    switch step % cycle {
    case 0: return .counter(.plus)
    case 1: return .todos(.todos(.element(id: todo, action: .toggleCompleted)))
    case 2: return .counter(.minus)
    case 3: return .todos(.todos(.element(id: todo, action: .titleChanged("Todo \(round % 5)"))))
    case 4: return .searchTapped
    case 5: return .search(.presented(.queryChanged("s")))
    case 6: return .search(.presented(.queryChanged("sw")))
    case 7: return .search(.presented(.queryChanged("swi")))
    case 8: return .search(.dismiss)
    case 9: return .todos(.filterChanged(.active))
    case 10: return .todos(.move(fromOffsets: [0], toOffset: 2))
    case 11: return .todos(.filterChanged(.all))
    case 12: return .counter(.plus)
    case 13: return .todos(.todos(.element(id: todo, action: .toggleCompleted)))
    default: return round % 10 == 0 ? .counter(.reset) : .counter(.plus)
    }
  }

  private static let cycle = 16
}
