import ComposableCore
import Foundation
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// Step 0's keyframe is written from the incremental encoder's cached parts (the elements'
/// JSON, the cached hashes), not from a tree of the whole state: its bytes and hash must be
/// exactly the tree's, for elements encoded together at the start (`encodeEach…`), with a
/// hand-written `encode(to:)` and custom keys; and with redaction, the redacted tree's.
@MainActor
final class RecordingStartTests: XCTestCase {
  struct Row: Encodable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var done = false

    enum CodingKeys: String, CodingKey {
      case id
      case title = "$label"
      case done
    }
  }

  /// Written by hand: a computed field and a key written in another order.
  struct Tag: Encodable, Equatable, Sendable, Identifiable {
    var id: String
    var weight: Int

    enum Keys: String, CodingKey { case weight, name, double }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(weight, forKey: .weight)
      try container.encode(id, forKey: .name)
      try container.encode(weight * 2, forKey: .double)
    }
  }

  struct Lists: Reducer {
    struct State: Encodable, Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row>
      var tags: IdentifiedArrayOf<Tag>
      var secret = "hunter2"
    }

    enum Action: Codable, Equatable, Sendable {
      case toggle(Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .toggle(let id): state.rows[id: id]?.done.toggle()
      }
      return .none
    }
  }

  private var initial: Lists.State {
    Lists.State(
      rows: IdentifiedArray(uniqueElements: [
        Row(id: 1, title: "one"), Row(id: 2, title: "two \"quoted\"", done: true),
      ]),
      tags: IdentifiedArray(uniqueElements: [Tag(id: "a", weight: 3), Tag(id: "$b", weight: -1)]))
  }

  private func recordStart(configuration: Recorder.Configuration) async throws
    -> (keyframe: String, hash: UInt64)
  {
    let directory = try TemporaryDirectory()
    let path = directory.path("start.rewind")
    let recorder = try Recorder(path: path, configuration: configuration)
    let store = Store(initialState: initial) { Lists().recording(to: recorder) }
    store.send(.toggle(1))
    recorder.finish()
    await recorder.waitUntilFinished()
    XCTAssertNil(recorder.error)
    let hash = try XCTUnwrap(try TraceReader(path: path).rows(from: 0, to: 0).first).stateHash
    // A stored keyframe is the state's JSON and a newline.
    var keyframe = try TraceEditor(path: path).keyframeBytes(step: 0)
    XCTAssertEqual(keyframe.popLast(), UInt8(ascii: "\n"))
    return (String(decoding: keyframe, as: UTF8.self), hash)
  }

  func testStepZerosKeyframeIsTheWholeTreesJSONAndHash() async throws {
    let start = try await recordStart(configuration: .init())
    let expected =
      #"{"rows":[{"id":1,"$$label":"one","done":false},"#
      + #"{"id":2,"$$label":"two \"quoted\"","done":true}],"#
      + #""tags":[{"weight":3,"name":"a","double":6},{"weight":-1,"name":"$b","double":-2}],"#
      + #""secret":"hunter2"}"#
    XCTAssertEqual(start.keyframe, expected)
    let tree = try TraceValueEncoder().encode(initial)
    XCTAssertEqual(tree.jsonString, expected)
    XCTAssertEqual(start.hash, tree.stableHash)
  }

  func testARedactedStartIsTheRedactedTreesJSONAndHash() async throws {
    let start = try await recordStart(configuration: .init(redactedStatePaths: ["secret"]))
    let recorded = try TraceValue(json: Array(start.keyframe.utf8))
    guard case .object(let fields) = recorded, let secret = fields.last,
      case .string(let marker) = secret.value
    else { return XCTFail("not the state: \(recorded)") }
    XCTAssertEqual(secret.key, "secret")
    XCTAssertTrue(marker.hasPrefix("<redacted "), marker)
    guard case .object(var expected) = try TraceValueEncoder().encode(initial) else {
      return XCTFail("not an object")
    }
    expected[expected.count - 1].value = .string(marker)
    XCTAssertEqual(recorded, .object(expected))
    XCTAssertEqual(start.keyframe, TraceValue.object(expected).jsonString)
    XCTAssertEqual(start.hash, recorded.stableHash)
  }
}
