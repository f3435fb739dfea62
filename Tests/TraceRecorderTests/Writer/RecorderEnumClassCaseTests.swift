import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A state whose enum has a case holding a class is recorded as a number while it holds one,
/// and as a placeholder from the step it holds the box: whether a value holds class
/// instances is decided by its type and, for an enum, by the value's case, never by the first
/// value met. The box is not read on the writer's thread (it held 0 when it was put there,
/// and 2 by the time the writer got to that step), changing it in place changes nothing the
/// trace says, and a typed replay of the trace matches.
@MainActor
final class RecorderEnumClassCaseTests: XCTestCase {
  func testAnEnumIsAPlaceholderFromTheStepItHoldsTheBox() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("jar.rewind")
    let recorder = try Recorder(path: path)
    let issues = await collectingIssues {
      let store = Store(initialState: JarShelf.State()) { JarShelf(jar: Jar()).recording(to: recorder) }
      for action in Self.actions { store.send(action) }
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)
    XCTAssertEqual(issues, [Self.issue(path, at: "count")])
    try assertTrace(path, state: Self.shelfState, prefix: "")
    XCTAssertEqual(
      try Replay(trace: path, reducer: JarShelf(jar: Jar()), initialState: JarShelf.State()).run(),
      .matched(steps: 5))
  }

  /// The Recorder not outermost (in `CombineReducers`), the enum in a child state reached
  /// through a `Scope`.
  func testAnEnumInAScopedChildIsAPlaceholderFromTheStepItHoldsTheBox() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("scoped.rewind")
    let recorder = try Recorder(path: path)
    let issues = await collectingIssues {
      let store = Store(initialState: JarCupboard.State()) {
        CombineReducers {
          Reduce<JarCupboard.State, JarCupboard.Action> { _, _ in .none }
          JarCupboard(jar: Jar()).recording(to: recorder)
        }
      }
      for action in Self.actions { store.send(.shelf(action)) }
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)
    XCTAssertEqual(issues, [Self.issue(path, at: "shelf.count")])
    try assertTrace(
      path, state: { "(shelf: \(Self.shelfState($0, $1)), label: \"cupboard\")" },
      prefix: "shelf.")
    XCTAssertEqual(
      try Replay(trace: path, reducer: JarCupboard(jar: Jar()), initialState: JarCupboard.State())
        .run(),
      .matched(steps: 5))
  }

  private static let actions: [JarShelf.Action] = [.plain(1), .box, .bump, .bump, .rename("jar")]

  private static func shelfState(_ title: String, _ count: String) -> String {
    "(title: \"\(title)\", count: \(count))"
  }

  private static let placeholder = #""<not recorded: JarCount holds class instances>""#

  private static func issue(_ path: String, at field: String) -> String {
    "Recording to \(path): the state at \(field) holds class instances, which change in "
      + "place where the recorder cannot see them; it is recorded as \"<not recorded: …>\". "
      + "Make it a value type to record it."
  }

  /// The count is 0, then 1, then the placeholder from the `.box` step on; the bumps change
  /// nothing, the rename the title. `state`: the state's text for a title and a count;
  /// `prefix`: the shelf's path.
  private func assertTrace(
    _ path: String, state: (String, String) -> String, prefix: String
  ) throws {
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try reader.rows(from: 1, to: .max).map { "\($0.step) \($0.changedPaths)" },
      [
        "1 [\"\(prefix)count\"]", "2 [\"\(prefix)count\"]", "3 []", "4 []",
        "5 [\"\(prefix)title\"]",
      ])
    let counts = ["0", "1", Self.placeholder, Self.placeholder, Self.placeholder]
    for (step, count) in counts.enumerated() {
      XCTAssertEqual(
        try reader.state(at: step).description, state("shelf", count), "step \(step)")
    }
    XCTAssertEqual(try reader.state(at: 5).description, state("jar", Self.placeholder))
  }
}

/// A box the app changes in place (also `FirstSampleProbeTests`').
final class Jar: @unchecked Sendable {
  var count = 0
}

/// A count that is a number or a jar's, written as the number either way: its own
/// `encode(to:)` reads the jar.
enum JarCount: Codable, Sendable {
  case plain(Int)
  case boxed(Jar)

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .plain(let value): try container.encode(value)
    case .boxed(let jar): try container.encode(jar.count)
    }
  }

  init(from decoder: Decoder) throws {
    self = .plain(try decoder.singleValueContainer().decode(Int.self))
  }
}

private struct JarShelf: Reducer {
  let jar: Jar

  struct State: Codable, Sendable {
    var title = "shelf"
    var count = JarCount.plain(0)
  }

  enum Action: Codable, Equatable, Sendable {
    case plain(Int), box, bump, rename(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .plain(let value): state.count = .plain(value)
    case .box: state.count = .boxed(jar)
    case .bump: jar.count += 1
    case .rename(let title): state.title = title
    }
    return .none
  }
}

private struct JarCupboard: Reducer {
  let jar: Jar

  struct State: Codable, Sendable {
    var shelf = JarShelf.State()
    var label = "cupboard"
  }

  enum Action: Codable, Equatable, Sendable {
    case shelf(JarShelf.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.shelf, action: .jarCupboardShelf) { JarShelf(jar: jar) }
  }
}

extension AnyCasePath where Root == JarCupboard.Action, Value == JarShelf.Action {
  fileprivate static var jarCupboardShelf: Self {
    .init(Root.shelf) { if case let .shelf(action) = $0 { action } else { nil } }
  }
}
