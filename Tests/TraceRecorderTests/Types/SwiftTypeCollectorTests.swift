import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceValues
import XCTest

@testable import TraceRecorder

/// `SwiftTypeCollector` on the writer's path: each step's changes (from `IncrementalEncoder`,
/// as the writer gets them) against the table, on a feature the fixtures do not have. Types
/// that appear late must be added at the step they appear, and a change at a pattern already
/// known to be plain must not be looked at again.
final class SwiftTypeCollectorTests: XCTestCase {
  fileprivate enum Phase: Codable, Equatable {
    case idle
    case loading(progress: Int)
    case done(String)
  }

  fileprivate enum Level: Int, Codable, Equatable { case low = 1, high = 2 }

  fileprivate struct Child: Codable, Equatable {
    var name: String
    var level: Level
  }

  fileprivate protocol Shape: Encodable {}

  fileprivate struct Circle: Shape { var radius: Double }

  fileprivate struct Square: Shape {
    var side: Int
    var label: String
  }

  fileprivate struct Task: Codable, Equatable, Identifiable {
    var id: Int
    var title: String
    var status: Phase
  }

  fileprivate struct Column: Codable, Equatable, Identifiable {
    var id: String
    var tasks: IdentifiedArrayOf<Task>
  }

  fileprivate struct State: Encodable {
    var phase = Phase.idle
    var child: Child?
    var shape: any Shape = Circle(radius: 1)
    var columns: IdentifiedArrayOf<Column> = []

    enum CodingKeys: String, CodingKey { case phase, child, shape, columns }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(phase, forKey: .phase)
      try container.encodeIfPresent(child, forKey: .child)
      try container.encode(shape, forKey: .shape)
      try container.encode(columns, forKey: .columns)
    }
  }

  /// Records `steps` (each a change of the state) after the initial state, as the writer
  /// does; per step, the table's lines that are new or changed and whether it grew.
  private func record(_ steps: [(inout State) -> Void]) throws -> (
    grown: [[String]], dirty: [Bool], last: [String]
  ) {
    var state = State()
    var encoder = IncrementalEncoder()
    var types = SwiftTypeCollector()
    _ = try encoder.encode(state)
    types.noteState(state, changes: nil)
    var previous = SwiftTypeEntry.lines(types.table.state)
    var grown: [[String]] = [previous]
    var dirty: [Bool] = [types.isDirty]
    for step in steps {
      types.isDirty = false
      step(&state)
      let result = try encoder.encode(state)
      types.noteState(state, changes: result.changes)
      let lines = SwiftTypeEntry.lines(types.table.state)
      grown.append(lines.filter { !previous.contains($0) })
      dirty.append(types.isDirty)
      previous = lines
    }
    return (grown, dirty, previous)
  }

  func testLateTypesAreAddedAtTheStepTheyAppearAndNotBefore() throws {
    let steps: [(inout State) -> Void] = [
      // 1: a column with a task: the identified arrays' elements appear.
      {
        $0.columns.append(
          Column(id: "a", tasks: [Task(id: 1, title: "one", status: .idle)]))
      },
      // 2: a task's enum gets a payload case.
      { $0.columns[id: "a"]!.tasks[id: 1]!.status = .loading(progress: 10) },
      // 3: the existential field's concrete type changes.
      { $0.shape = Square(side: 2, label: "x") },
      // 4: the optional child is presented.
      { $0.child = Child(name: "c", level: .low) },
      // 5: the top enum's payload case appears.
      { $0.phase = .done("ok") },
      // 6: changes only at known plain patterns, in another element than before.
      {
        $0.child!.name = "d"
        $0.columns[id: "a"]!.tasks.append(Task(id: 2, title: "two", status: .idle))
        $0.columns[id: "a"]!.tasks[id: 1]!.title = "uno"
      },
      // 7: a second task's enum gets a case only the first had, then a new one.
      { $0.columns[id: "a"]!.tasks[id: 2]!.status = .loading(progress: 1) },
      { $0.columns[id: "a"]!.tasks[id: 2]!.status = .done("yes") },
      // 9: a raw value not seen yet, and a new column whose task is in a known case.
      {
        $0.child!.level = .high
        $0.columns.append(Column(id: "b", tasks: [Task(id: 3, title: "t", status: .idle)]))
      },
      // 10: nothing new: known cases and plain fields.
      {
        $0.phase = .idle
        $0.columns[id: "b"]!.tasks[id: 3]!.title = "three"
        $0.child!.name = "e"
      },
    ]
    let (grown, dirty, last) = try record(steps)
    let own = "TraceRecorderTests.SwiftTypeCollectorTests.(private)."
    let tasks =
      "ComposableCore.IdentifiedArray<Swift.Int, \(own)Task> identifiedArray key Swift.Int"
    let columns =
      "ComposableCore.IdentifiedArray<Swift.String, \(own)Column> identifiedArray key Swift.String"
    XCTAssertEqual(
      grown,
      [
        [
          ": \(own)State struct",
          "child: \(own)Child other optional",
          "columns: \(columns)",
          "phase: \(own)Phase enum cases idle",
          "shape: \(own)Circle struct",
          "shape.radius: Swift.Double floatingPoint",
        ],
        [
          "columns[]: \(own)Column struct",
          "columns[].id: Swift.String string",
          "columns[].tasks: \(tasks)",
          "columns[].tasks[]: \(own)Task struct",
          "columns[].tasks[].id: Swift.Int integer",
          "columns[].tasks[].status: \(own)Phase enum cases idle",
          "columns[].tasks[].title: Swift.String string",
        ],
        [
          "columns[].tasks[].status: \(own)Phase enum cases idle,loading",
          "columns[].tasks[].status.loading.progress: Swift.Int integer",
        ],
        // The entry keeps the first concrete type's name; the new one's fields are added.
        ["shape.label: Swift.String string", "shape.side: Swift.Int integer"],
        [
          "child: \(own)Child struct optional",
          "child.level: \(own)Level enum cases low raw 1=low",
          "child.name: Swift.String string",
        ],
        [
          "phase: \(own)Phase enum cases done,idle",
          "phase.done: Swift.String string",
        ],
        [],
        [],
        [
          "columns[].tasks[].status: \(own)Phase enum cases done,idle,loading",
          "columns[].tasks[].status.done: Swift.String string",
        ],
        ["child.level: \(own)Level enum cases high,low raw 1=low,2=high"],
        [],
      ])
    XCTAssertEqual(
      dirty, [true, true, true, true, true, true, false, false, true, true, false])
    XCTAssertEqual(
      last,
      [
        ": \(own)State struct",
        "child: \(own)Child struct optional",
        "child.level: \(own)Level enum cases high,low raw 1=low,2=high",
        "child.name: Swift.String string",
        "columns: \(columns)",
        "columns[]: \(own)Column struct",
        "columns[].id: Swift.String string",
        "columns[].tasks: \(tasks)",
        "columns[].tasks[]: \(own)Task struct",
        "columns[].tasks[].id: Swift.Int integer",
        "columns[].tasks[].status: \(own)Phase enum cases done,idle,loading",
        "columns[].tasks[].status.done: Swift.String string",
        "columns[].tasks[].status.loading.progress: Swift.Int integer",
        "columns[].tasks[].title: Swift.String string",
        "phase: \(own)Phase enum cases done,idle",
        "phase.done: Swift.String string",
        "shape: \(own)Circle struct",
        "shape.label: Swift.String string",
        "shape.radius: Swift.Double floatingPoint",
        "shape.side: Swift.Int integer",
      ])
  }

  /// A value set again where the same value was looked at before is compared, not looked
  /// at: what is new in a value met for the first time at step N is still added at step N,
  /// below an optional presented again, in an enum met again, in an element inserted again.
  func testAValueMetAgainAddsNothingAndANewOneAtTheSamePlaceStillAdds() throws {
    let task = Task(id: 1, title: "one", status: .idle)
    let steps: [(inout State) -> Void] = [
      // 1–3: the child presented, dismissed, presented again with the same value.
      { $0.child = Child(name: "c", level: .low) },
      { $0.child = nil },
      { $0.child = Child(name: "c", level: .low) },
      // 4: dismissed, then presented with a raw value not seen yet.
      { $0.child = nil },
      { $0.child = Child(name: "c", level: .high) },
      // 6–8: the top enum toggled between a new case and a known one, then the new one again.
      { $0.phase = .loading(progress: 1) },
      { $0.phase = .idle },
      { $0.phase = .loading(progress: 1) },
      // 9: a case met for the first time.
      { $0.phase = .done("x") },
      // 10–12: a column inserted, removed, inserted again the same.
      { $0.columns.append(Column(id: "a", tasks: [task])) },
      { $0.columns.removeAll() },
      { $0.columns.append(Column(id: "a", tasks: [task])) },
      // 13: a task inserted into it with a case its elements never held.
      { $0.columns[id: "a"]!.tasks.append(Task(id: 2, title: "two", status: .done("y"))) },
    ]
    let (grown, dirty, _) = try record(steps)
    let own = "TraceRecorderTests.SwiftTypeCollectorTests.(private)."
    XCTAssertEqual(
      Array(grown.dropFirst()),
      [
        [
          "child: \(own)Child struct optional",
          "child.level: \(own)Level enum cases low raw 1=low",
          "child.name: Swift.String string",
        ],
        [], [], [],
        ["child.level: \(own)Level enum cases high,low raw 1=low,2=high"],
        [
          "phase: \(own)Phase enum cases idle,loading",
          "phase.loading.progress: Swift.Int integer",
        ],
        [], [],
        ["phase: \(own)Phase enum cases done,idle,loading", "phase.done: Swift.String string"],
        [
          "columns[]: \(own)Column struct",
          "columns[].id: Swift.String string",
          "columns[].tasks: ComposableCore.IdentifiedArray<Swift.Int, \(own)Task>"
            + " identifiedArray key Swift.Int",
          "columns[].tasks[]: \(own)Task struct",
          "columns[].tasks[].id: Swift.Int integer",
          "columns[].tasks[].status: \(own)Phase enum cases idle",
          "columns[].tasks[].title: Swift.String string",
        ],
        [], [],
        [
          "columns[].tasks[].status: \(own)Phase enum cases done,idle",
          "columns[].tasks[].status.done: Swift.String string",
        ],
      ])
    XCTAssertEqual(
      dirty,
      [true, true, false, false, false, true, true, false, false, true, true, false, false, true])
  }

  fileprivate enum Action: Codable, Equatable {
    case rename(id: Int, title: String)
    case setPhase(Phase)
    case setLevel(Level)
    case pick(Child?)
  }

  /// Records each action as the writer does (once per distinct action); per action, the
  /// action table's lines that are new or changed.
  private func record(_ actions: [Action]) throws -> [[String]] {
    var types = SwiftTypeCollector()
    var previous: [String] = []
    var grown: [[String]] = []
    for action in actions {
      let value = try TraceValueEncoder().encode(action)
      types.noteAction(action, value: value, casePath: ActionCasePath.path(of: value))
      let lines = SwiftTypeEntry.lines(types.table.action)
      grown.append(lines.filter { !previous.contains($0) })
      previous = lines
    }
    return grown
  }

  func testAnActionsLateCasesRawValuesAndOptionalsAreAddedWhenTheyAppear() throws {
    let own = "TraceRecorderTests.SwiftTypeCollectorTests.(private)."
    let grown = try record([
      .rename(id: 1, title: "a"),
      .rename(id: 2, title: "b"),  // a closed case: nothing to look at
      .rename(id: 3, title: "c"),
      .setPhase(.idle),
      .setPhase(.loading(progress: 1)),  // a payload case the walk did not see
      .setPhase(.loading(progress: 2)),
      .setPhase(.done("x")),
      .setLevel(.low),
      .setLevel(.low),
      .setLevel(.high),  // a raw value not seen yet
      .pick(nil),
      .pick(nil),  // nil again: known, and no reason not to look at the next value
      .pick(Child(name: "n", level: .high)),  // an optional holding a value at last
      .pick(Child(name: "m", level: .low)),  // a raw value inside the optional's struct
    ])
    XCTAssertEqual(
      grown,
      [
        [
          ": \(own)Action enum cases rename",
          "rename.id: Swift.Int integer",
          "rename.title: Swift.String string",
        ],
        [],
        [],
        [
          ": \(own)Action enum cases rename,setPhase",
          "setPhase: \(own)Phase enum cases idle",
        ],
        [
          "setPhase: \(own)Phase enum cases idle,loading",
          "setPhase.loading.progress: Swift.Int integer",
        ],
        [],
        [
          "setPhase: \(own)Phase enum cases done,idle,loading",
          "setPhase.done: Swift.String string",
        ],
        [
          ": \(own)Action enum cases rename,setLevel,setPhase",
          "setLevel: \(own)Level enum cases low raw 1=low",
        ],
        [],
        ["setLevel: \(own)Level enum cases high,low raw 1=low,2=high"],
        [
          ": \(own)Action enum cases pick,rename,setLevel,setPhase",
          "pick: \(own)Child other optional",
        ],
        [],
        [
          "pick: \(own)Child struct optional",
          "pick.level: \(own)Level enum cases high raw 2=high",
          "pick.name: Swift.String string",
        ],
        ["pick.level: \(own)Level enum cases high,low raw 1=low,2=high"],
      ])
  }

  fileprivate enum Parent: Codable, Equatable {
    case child(Action)
    case move(fromOffsets: [Int], toOffset: Int)
    case pair(Phase, Level)
    case tagged(Phase, note: String)
  }

  /// Notes each action as the writer does, checking after each one that the action table is
  /// what a walk of every action so far makes it; returns the collector.
  private func noteEach(_ actions: [Parent], line: UInt = #line) throws -> SwiftTypeCollector {
    var types = SwiftTypeCollector()
    var walk = SwiftTypeWalk(entries: [:], fixed: FixedWalkTypes())
    for (index, action) in actions.enumerated() {
      let value = try TraceValueEncoder().encode(action)
      types.noteAction(action, value: value, casePath: ActionCasePath.path(of: value))
      walk.visit(action, pattern: "", depth: 0)
      XCTAssertEqual(
        SwiftTypeEntry.lines(types.table.action), SwiftTypeEntry.lines(walk.entries),
        "after action \(index)", line: line)
    }
    return types
  }

  /// Child actions met again with another payload are passed over once their cases are
  /// closed (`ClosedActionCase` one level down), yet every case, raw value and optional that
  /// appears late is still added when it appears: per action, the table grows exactly as a
  /// walk of every action makes it grow.
  func testNestedActionsAddWhatAWalkOfEveryActionAdds() throws {
    let actions: [Parent] = [
      .child(.rename(id: 1, title: "a")),
      .child(.rename(id: 2, title: "b")),
      .child(.rename(id: 3, title: "c")),  // closed one level down: not looked at
      .move(fromOffsets: [0], toOffset: 2),
      .move(fromOffsets: [1, 2], toOffset: 0),
      .move(fromOffsets: [], toOffset: 1),
      .child(.setPhase(.loading(progress: 1))),
      .child(.setPhase(.loading(progress: 2))),
      .child(.setPhase(.loading(progress: 3))),
      .child(.pick(nil)),
      .child(.pick(nil)),
      .child(.pick(Child(name: "n", level: .low))),  // an optional holding a value at last
      .child(.pick(Child(name: "m", level: .high))),  // a raw value inside it
      .pair(.idle, .low),
      .pair(.idle, .low),
      .pair(.idle, .low),  // closed? no: a raw-value enum is never plain
      .pair(.loading(progress: 1), .low),  // the same case path, another inner case
      .pair(.loading(progress: 2), .high),  // and a raw value not seen yet
      .pair(.done("x"), .high),
      .tagged(.idle, note: "a"),
      .tagged(.idle, note: "b"),
      .tagged(.idle, note: "c"),  // closed, the inner case a payload-less one
      .tagged(.loading(progress: 4), note: "d"),  // another inner case: looked at
      .tagged(.done("y"), note: "e"),
      .tagged(.done("z"), note: "f"),
    ]
    let types = try noteEach(actions)
    let own = "TraceRecorderTests.SwiftTypeCollectorTests.(private)."
    XCTAssertEqual(
      SwiftTypeEntry.lines(types.table.action),
      [
        ": \(own)Parent enum cases child,move,pair,tagged",
        "child: \(own)Action enum cases pick,rename,setPhase",
        "child.pick: \(own)Child struct optional",
        "child.pick.level: \(own)Level enum cases high,low raw 1=low,2=high",
        "child.pick.name: Swift.String string",
        "child.rename.id: Swift.Int integer",
        "child.rename.title: Swift.String string",
        "child.setPhase: \(own)Phase enum cases loading",
        "child.setPhase.loading.progress: Swift.Int integer",
        "move.fromOffsets: Swift.Array<Swift.Int> array",
        "move.fromOffsets[]: Swift.Int integer",
        "move.toOffset: Swift.Int integer",
        "pair._0: \(own)Phase enum cases done,idle,loading",
        "pair._0.done: Swift.String string",
        "pair._0.loading.progress: Swift.Int integer",
        "pair._1: \(own)Level enum cases high,low raw 1=low,2=high",
        "tagged._0: \(own)Phase enum cases done,idle,loading",
        "tagged._0.done: Swift.String string",
        "tagged._0.loading.progress: Swift.Int integer",
        "tagged.note: Swift.String string",
      ])
  }

  /// More closed case paths than the collector keeps as recent ones, met in turn (so the
  /// recent ones are replaced) and again soon after (so one is found there), among actions
  /// that are not closed: the table still grows exactly as a walk of every action makes it
  /// grow.
  func testClosedCasesMetInTurnAddWhatAWalkOfEveryActionAdds() throws {
    var actions: [Parent] = []
    for round in 0..<4 {
      actions += [
        .child(.rename(id: round, title: "\(round)")),
        .move(fromOffsets: Array(0..<round), toOffset: round),
        .tagged(.idle, note: "\(round)"),
        .child(.setPhase(.loading(progress: round))),
        .tagged(.done("\(round)"), note: ""),
        .tagged(.idle, note: "again"),  // closed, and among the recent ones from round 2
        .child(.setLevel(round % 2 == 0 ? .low : .high)),  // a raw value: never closed
        .pair(.idle, round < 2 ? .low : .high),  // never closed either
        .child(.pick(round == 3 ? Child(name: "n", level: .low) : nil)),
      ]
    }
    XCTAssertGreaterThan(5, SwiftTypeCollector.recentClosedKept)
    _ = try noteEach(actions)
  }

  /// A child's action is closed one level down once its case and plain values are known; a
  /// value with another inner case, an enum where a plain value was, or an optional is not.
  func testAChildActionsCaseIsClosedOneLevelDown() throws {
    var walk = SwiftTypeWalk(entries: [:], fixed: FixedWalkTypes())
    let known: [Parent] = [
      .child(.rename(id: 1, title: "a")), .child(.setPhase(.loading(progress: 1))),
      .child(.pick(nil)), .move(fromOffsets: [0], toOffset: 1),
    ]
    for action in known { walk.visit(action, pattern: "", depth: 0) }
    func value(_ action: Parent) throws -> TraceValue { try TraceValueEncoder().encode(action) }
    let rename = try XCTUnwrap(
      ClosedActionCase(try value(.child(.rename(id: 1, title: "a"))), in: walk.entries))
    XCTAssertTrue(rename.matches(try value(.child(.rename(id: 9, title: "z")))))
    XCTAssertFalse(rename.matches(try value(.child(.setPhase(.idle)))))
    XCTAssertFalse(rename.matches(try value(.move(fromOffsets: [], toOffset: 0))))
    let loading = try XCTUnwrap(
      ClosedActionCase(try value(.child(.setPhase(.loading(progress: 1)))), in: walk.entries))
    XCTAssertTrue(loading.matches(try value(.child(.setPhase(.loading(progress: 7))))))
    XCTAssertFalse(loading.matches(try value(.child(.setPhase(.done("x"))))))
    XCTAssertNotNil(
      ClosedActionCase(try value(.move(fromOffsets: [2], toOffset: 0)), in: walk.entries))
    // `pick`'s optional never held a value, and `done` is not a known case yet.
    XCTAssertNil(ClosedActionCase(try value(.child(.pick(nil))), in: walk.entries))
    XCTAssertNil(ClosedActionCase(try value(.child(.setPhase(.done("x")))), in: walk.entries))
  }
}
