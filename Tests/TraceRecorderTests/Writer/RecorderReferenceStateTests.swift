import ComposableCore
import ComposableTesting
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// State the writer cannot compare or read by its bits: class instances (encoded, or hidden
/// behind a hand-written `encode(to:)`), which the app changes in place while the writer
/// encodes on its own thread; and values whose `==` compares less than they hold. The first
/// are recorded as placeholders and reported once; the second are recorded exactly.
@MainActor
final class RecorderReferenceStateTests: XCTestCase {
  /// A class the state holds and mutates in place.
  final class Tally: Codable, @unchecked Sendable {
    var count = 0
  }

  /// A class the state hides: `Meter` encodes only the reading it takes from it.
  final class Sensor: @unchecked Sendable {
    var reading = 0
  }

  struct Meter: Encodable, Sendable {
    let sensor = Sensor()
    var label = "meter"

    enum CodingKeys: String, CodingKey { case label, reading }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(label, forKey: .label)
      try container.encode(sensor.reading, forKey: .reading)
    }
  }

  /// Equal by id alone, as models often are.
  struct Note: Encodable, Equatable, Identifiable, Sendable {
    var id: Int
    var text: String
    static func == (lhs: Note, rhs: Note) -> Bool { lhs.id == rhs.id }
  }

  struct Row: Encodable, Identifiable, Sendable {
    var id: Int
    let tally = Tally()
  }

  struct Feature: Reducer {
    struct State: Encodable, Sendable {
      var tally = Tally()
      var meter = Meter()
      var note = Note(id: 1, text: "draft")
      var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
      var notes: IdentifiedArrayOf<Note> = [Note(id: 7, text: "a"), Note(id: 8, text: "b")]
      var count = 0
    }

    enum Action: Encodable, Sendable {
      case tally, meter, note(String), row(Int), listNote(Int, String), log(Tally)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .tally: state.tally.count += 1
      case .meter: state.meter.sensor.reading += 10
      case .note(let text): state.note.text = text
      case .row(let id): state.rows[id: id]?.tally.count += 1
      case .listNote(let id, let text): state.notes[id: id]?.text = text
      case .log: state.count += 1
      }
      return .none
    }
  }

  func testClassInstancesAreReportedOnceAndRecordedAsPlaceholdersValuesExactly() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("references.rewind")
    let recorder = try Recorder(path: path)
    let logged = Tally()
    let actions: [Feature.Action] = [
      .tally, .meter, .note("final"), .row(2), .listNote(8, "changed"), .tally, .log(logged),
      .log(logged),
    ]
    // The store is made inside: step 0 is recorded (and reported) as soon as it exists.
    let issues = await collectingIssues {
      let store = Store(initialState: Feature.State()) { Feature().recording(to: recorder) }
      for action in actions { store.send(action) }
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)

    XCTAssertEqual(
      issues,
      [
        "Recording to \(path): the state at tally, meter, rows[…] hold class instances, which "
          + "change in place where the recorder cannot see them; they are recorded as "
          + "\"<not recorded: …>\". Make them value types to record them.",
        // A `log` action holds a class: that action is its placeholder, the others are read.
        "Recording to \(path): the action at . holds class instances, which change in "
          + "place where the recorder cannot see them; it is recorded as \"<not recorded: …>\". "
          + "Make it a value type to record it.",
      ])
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try reader.rows(from: 1, to: .max).map { "\($0.step) \($0.changedPaths)" },
      [
        "1 []", "2 []", #"3 ["note.text"]"#, "4 []", #"5 ["notes[id: 8].text"]"#, "6 []",
        #"7 ["count"]"#, #"8 ["count"]"#,
      ])
    XCTAssertEqual(
      try reader.state(at: 8).description,
      #"(tally: "<not recorded: Tally is a class>", "#
        + #"meter: "<not recorded: Meter holds class instances>", note: (id: 1, text: "final"), "#
        + #"rows: ["<not recorded: Row holds class instances>", "#
        + #""<not recorded: Row holds class instances>"], "#
        + #"notes: [(id: 7, text: "a"), (id: 8, text: "changed")], count: 2)"#)
    XCTAssertEqual(
      try (1...8).map { try reader.action(at: $0).description },
      [
        ".tally", ".meter", #".note("final")"#, ".row(2)", #".listNote(8, "changed")"#, ".tally",
        #""<not recorded: Action holds class instances>""#,
        #""<not recorded: Action holds class instances>""#,
      ])
  }
}
