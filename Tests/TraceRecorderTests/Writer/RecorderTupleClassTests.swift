import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// A stored property of a tuple type is read by the value's own `encode(to:)` as any stored
/// property is (`pair.1.count`), though the encoder never meets the tuple: its elements decide
/// as stored properties do. A value whose tuple holds a jar is a placeholder from step 0, the
/// jar is not read on the writer's thread, and changing it in place changes nothing the trace
/// says.
@MainActor
final class RecorderTupleClassTests: XCTestCase {
  func testATuplePropertyHoldingAClassIsAPlaceholder() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("pairs.rewind")
    let recorder = try Recorder(path: path)
    let issues = await collectingIssues {
      let store = Store(initialState: JarPairs.State(jar: Jar())) {
        JarPairs().recording(to: recorder)
      }
      for action: JarPairs.Action in [.bump, .bump, .rename("jars")] { store.send(action) }
      await recorder.waitUntilFinished()
    }
    XCTAssertNil(recorder.error)
    XCTAssertEqual(
      issues,
      [
        "Recording to \(path): the state at pair, list hold class instances, which change in "
          + "place where the recorder cannot see them; they are recorded as \"<not recorded: "
          + "…>\". Make them value types to record them."
      ])
    let reader = try TraceReader(path: path)
    XCTAssertEqual(
      try reader.rows(from: 1, to: .max).map { "\($0.step) \($0.changedPaths)" },
      ["1 []", "2 []", "3 [\"title\"]"])
    for step in 0...3 {
      XCTAssertEqual(
        try reader.state(at: step).description,
        "(title: \"\(step == 3 ? "jars" : "pairs")\", "
          + #"pair: "<not recorded: JarPair holds class instances>", "#
          + #"list: "<not recorded: JarList holds class instances>", "#
          + "plain: (number: 1, name: \"a\"))",
        "step \(step)")
    }
  }
}

/// A number and a jar, written as the number and the jar's count.
private struct JarPair: Encodable, Sendable {
  var pair: (Int, Jar)

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(pair.0, forKey: .number)
    try container.encode(pair.1.count, forKey: .count)
  }

  private enum CodingKeys: CodingKey { case number, count }
}

/// Labelled elements, one an array of jars, written as the jars' counts.
private struct JarList: Encodable, Sendable {
  var list: (label: String, jars: [Jar])

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(list.label, forKey: .label)
    try container.encode(list.jars.map(\.count), forKey: .counts)
  }

  private enum CodingKeys: CodingKey { case label, counts }
}

/// A tuple of values: written.
private struct PlainPair: Encodable, Sendable {
  var pair = (1, "a")

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(pair.0, forKey: .number)
    try container.encode(pair.1, forKey: .name)
  }

  private enum CodingKeys: CodingKey { case number, name }
}

private struct JarPairs: Reducer {
  struct State: Encodable, Sendable {
    var title = "pairs"
    var pair: JarPair
    var list: JarList
    var plain = PlainPair()

    init(jar: Jar) {
      pair = JarPair(pair: (1, jar))
      list = JarList(list: (label: "shelf", jars: [jar]))
    }
  }

  enum Action: Encodable, Equatable, Sendable {
    case bump, rename(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .bump: state.pair.pair.1.count += 1
    case .rename(let title): state.title = title
    }
    return .none
  }
}
