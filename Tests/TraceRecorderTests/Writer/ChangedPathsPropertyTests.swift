import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

@testable import InspectorKit

/// The changed paths the index holds for a step are exactly the paths `inspector diff` shows
/// for it (the renderer's paths between the states before and after), for every step of every
/// committed fixture trace and of a randomized feature recorded here: so `log --path P`
/// returns the steps that touched P, and only them.
@MainActor
final class ChangedPathsPropertyTests: XCTestCase {
  /// The paths the diff of `step` shows, against the previous recorded step.
  private func diffPaths(_ reader: TraceReader, step: Int, previous: Int) throws -> Set<String> {
    let before = try reader.state(at: previous)
    let after = try reader.state(at: step)
    return Set(DiffRenderer(width: 100).diff(from: before, to: after).paths.map(\.description))
  }

  private func assertIndexMatchesTheDiff(
    _ path: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> Int {
    let reader = try TraceReader(path: path)
    var previous = 0
    var checked = 0
    for row in try reader.rows(from: 1, to: .max) {
      XCTAssertEqual(
        Set(row.changedPaths), try diffPaths(reader, step: row.step, previous: previous),
        "\(path), step \(row.step) (\(row.actionPath))", file: file, line: line)
      previous = row.step
      checked += 1
    }
    return checked
  }

  func testEveryStepOfEveryFixtureTraceIndexesWhatItsDiffShows() async throws {
    let traces = FixtureTraces.current
    XCTAssertEqual(traces.count, 6)
    var steps = 0
    for trace in traces { steps += try assertIndexMatchesTheDiff(trace) }
    XCTAssertGreaterThan(steps, 100)
  }

  func testEveryStepOfARandomizedFeatureIndexesWhatItsDiffShows() async throws {
    let directory = try TemporaryDirectory()
    for seed in UInt64(1)...4 {
      let path = directory.path("random-\(seed).rewind")
      let recorder = try Recorder(path: path, configuration: .init(keyframeInterval: 16))
      let store = Store(initialState: Shapes.State()) { Shapes().recording(to: recorder) }
      var random = SplitMix(seed: seed)
      for _ in 0..<250 { store.send(Shapes.Action.random(&random)) }
      // Let the `.send` effects' steps land before the trace is closed.
      await Task.yield()
      await recorder.waitUntilFinished()
      XCTAssertNil(recorder.error)
      XCTAssertGreaterThanOrEqual(try assertIndexMatchesTheDiff(path), 250)
    }
  }
}

/// A feature whose steps change every shape a state has: nested structs, optionals that gain
/// and lose a value, enums that change case or payload, dictionaries that gain keys between
/// others, identified arrays with insertions, removals, moves and edits, plain arrays, dates.
struct Shapes: Reducer {
  struct Row: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
    var done = false
    var tags: [String] = []
  }

  enum Mode: Codable, Equatable, Sendable {
    case idle
    case loading(Int)
    case loaded(count: Int, note: String?)
  }

  struct Detail: Codable, Equatable, Sendable {
    var name: String
    var score = 0
    var sub: Detail.Sub?

    struct Sub: Codable, Equatable, Sendable {
      var flag = false
    }
  }

  struct State: Codable, Equatable, Sendable {
    var count = 0
    var detail: Detail?
    var mode = Mode.idle
    var scores: [String: Int] = ["b": 2, "d": 4]
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "one"), Row(id: 2, title: "two")]
    var numbers: [Int] = [1, 2, 3]
    var when = Date(timeIntervalSince1970: 1_778_572_800)
    var log: [String] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case count
    case openDetail(String)
    case closeDetail
    case detailScore
    case detailSub
    case mode(Int)
    case score(String, Int?)
    case insertRow(Int, at: Int)
    case removeRow(Int)
    case moveRow(Int, to: Int)
    case editRow(Int, String)
    case tagRow(Int, String)
    case numbers(Int)
    case later(Double)
    case echo(String)
    case echoed(String)

    static func random(_ random: inout SplitMix) -> Action {
      func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
      let keys = ["a", "b", "c", "d", "e"]
      switch pick(16) {
      case 0: return .count
      case 1: return .openDetail(["x", "y"][pick(2)])
      case 2: return .closeDetail
      case 3: return .detailScore
      case 4: return .detailSub
      case 5: return .mode(pick(4))
      case 6: return .score(keys[pick(5)], pick(3) == 0 ? nil : pick(9))
      case 7: return .insertRow(10 + pick(20), at: pick(4))
      case 8: return .removeRow(1 + pick(30))
      case 9: return .moveRow(pick(6), to: pick(6))
      case 10: return .editRow(pick(6), "t\(pick(5))")
      case 11: return .tagRow(pick(6), "g\(pick(3))")
      case 12: return .numbers(pick(5))
      case 13: return .later(Double(pick(1_000)) / 8)
      default: return .echo("e\(pick(4))")
      }
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .count:
      state.count += 1
    case .openDetail(let name):
      state.detail = Detail(name: name)
    case .closeDetail:
      state.detail = nil
    case .detailScore:
      state.detail?.score += 1
    case .detailSub:
      if state.detail?.sub == nil {
        state.detail?.sub = Detail.Sub()
      } else {
        state.detail?.sub?.flag.toggle()
      }
    case .mode(let kind):
      switch (kind, state.mode) {
      case (0, _): state.mode = .idle
      case (1, .loading(let n)): state.mode = .loading(n + 1)
      case (1, _): state.mode = .loading(0)
      case (2, .loaded(let count, _)): state.mode = .loaded(count: count + 1, note: nil)
      default: state.mode = .loaded(count: 0, note: "ready")
      }
    case .score(let key, let value):
      state.scores[key] = value
    case .insertRow(let id, let position):
      guard state.rows[id: id] == nil else { break }
      state.rows.insert(
        Row(id: id, title: "row \(id)"), at: min(position, state.rows.count))
    case .removeRow(let id):
      state.rows.remove(id: id)
    case .moveRow(let from, let to):
      guard from < state.rows.count, to < state.rows.count else { break }
      state.rows.move(fromOffsets: [from], toOffset: to > from ? to + 1 : to)
    case .editRow(let index, let title):
      guard index < state.rows.count else { break }
      let id = state.rows.ids[index]
      state.rows[id: id]?.title = title
    case .tagRow(let index, let tag):
      guard index < state.rows.count else { break }
      let id = state.rows.ids[index]
      state.rows[id: id]?.tags.append(tag)
    case .numbers(let kind):
      switch kind {
      case 0: state.numbers.insert(state.count, at: 0)
      case 1 where !state.numbers.isEmpty: state.numbers.removeLast()
      case 2 where !state.numbers.isEmpty: state.numbers[state.numbers.count / 2] += 1
      case 3: state.numbers.append(state.numbers.count)
      default: state.numbers.reverse()
      }
    case .later(let seconds):
      state.when = state.when.addingTimeInterval(seconds)
    case .echo(let text):
      return .send(.echoed(text))
    case .echoed(let text):
      state.log.append(text)
    }
    return .none
  }
}
