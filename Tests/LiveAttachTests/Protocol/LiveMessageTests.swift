import Foundation
import TraceKit
import XCTest

@testable import LiveAttach

/// Every message of the protocol, written and read back: the exact JSON on the wire, and the
/// frame around it.
final class LiveMessageTests: XCTestCase {
  private let record = StepRecord(
    step: 7, monotonicNanos: 1_500, wallTime: 1_780_000_000.25, origin: .jump(toStep: 3),
    actionPath: "", action: .null,
    changes: [
      .set(TracePath([.key("count")]), .int(3)),
      .remove(TracePath([.key("rows"), .id(.int(4))])),
    ],
    changedPaths: ["count", "rows[id: 4]"], stateHash: 0x00ab_cdef_0123_4567, reducerNanos: 42,
    dependencies: [DependencyRead(key: "uuid", value: .string("x"))])

  private func roundTrip(_ message: LiveMessage) throws -> String {
    let frame = message.frame()
    var reader = FrameReader(limit: LiveProtocol.messageLimit)
    reader.append(frame)
    let payload = try XCTUnwrap(try reader.next())
    XCTAssertEqual(frame.count, payload.count + 4)
    XCTAssertEqual(String(decoding: try LiveMessage(json: payload).json(), as: UTF8.self),
      String(decoding: payload, as: UTF8.self))
    return String(decoding: payload, as: UTF8.self)
  }

  func testAStepIsWrittenAsItsObjectAndReadBack() throws {
    XCTAssertEqual(
      try roundTrip(.step(record)),
      #"{"type":"step","step":7,"mono":1500,"wall":1780000000.25,"origin":"jump:3","#
        + #""actionPath":"","action":null,"changes":[{"op":"set","path":"count","value":3},"#
        + #"{"op":"remove","path":"rows[id: 4]"}],"changedPaths":["count","rows[id: 4]"],"#
        + #""hash":"00abcdef01234567","reducerNs":42,"deps":[{"key":"uuid","value":"x"}]}"#)
    guard case .step(let read) = try LiveMessage(json: Array(try roundTrip(.step(record)).utf8))
    else { return XCTFail("not a step") }
    XCTAssertEqual(read.step, 7)
    XCTAssertEqual(read.origin, .jump(toStep: 3))
    XCTAssertEqual(read.changes, record.changes)
    XCTAssertEqual(read.stateHash, record.stateHash)
    XCTAssertEqual(read.dependencies, record.dependencies)
  }

  func testAUserStepWithAnInsertIsWrittenAsItsObject() throws {
    let user = StepRecord(
      step: 8, monotonicNanos: 2_000, wallTime: 1.5, origin: .user,
      actionPath: "rows.add", action: .enumCase("add", [TraceField("_0", .int(5))]),
      changes: [.insert(TracePath([.key("rows"), .index(0)]), .object([]))],
      changedPaths: ["rows[0]"], stateHash: 1, reducerNanos: 0)
    let frame = LiveMessage.step(user).frame()
    XCTAssertEqual(
      String(decoding: frame.dropFirst(4), as: UTF8.self),
      String(decoding: LiveMessage.step(user).json(), as: UTF8.self))
    XCTAssertEqual(
      String(decoding: frame.dropFirst(4), as: UTF8.self),
      #"{"type":"step","step":8,"mono":2000,"wall":1.5,"origin":"user","#
        + #""actionPath":"rows.add","action":{"$case":"add","_0":5},"#
        + #""changes":[{"op":"insert","path":"rows[0]","value":{}}],"#
        + #""changedPaths":["rows[0]"],"hash":"0000000000000001","reducerNs":0}"#)
  }

  func testEveryOtherMessageRoundTrips() throws {
    let status = LiveStatus(
      lastStep: 40, isPaused: true, jumpedTo: 12, presentStep: 39, heldActions: 2)
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    let messages: [(LiveMessage, String)] = [
      (.hello(version: 1), #"{"type":"hello","version":1}"#),
      (.watch(id: 2, live: true), #"{"type":"watch","id":2,"live":true}"#),
      (.command(id: 3, .jump(step: 12)), #"{"type":"jump","id":3,"step":12}"#),
      (.command(id: 4, .continueFromHere), #"{"type":"continue","id":4}"#),
      (
        .command(id: 5, .send(action: .enumCase("plus", []))),
        #"{"type":"send","id":5,"action":{"$case":"plus"}}"#
      ),
      (
        .ok(id: 3, status: status, step: 41),
        #"{"type":"ok","id":3,"status":{"type":"status","lastStep":40,"paused":true,"#
          + #""jumpedTo":12,"presentStep":39,"held":2},"step":41}"#
      ),
      (
        .error(id: nil, code: "malformed", message: "bad"),
        #"{"type":"error","id":null,"code":"malformed","message":"bad"}"#
      ),
      (
        .effectEnded(
          id: id, endNanos: 9, outcome: .cancelled(reason: "abandonedFuture", byStep: 5),
          afterStep: 4),
        #"{"type":"effectEnded","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","endNs":9,"#
          + #""outcome":"cancelled","reason":"abandonedFuture","byStep":5,"afterStep":4}"#
      ),
      (
        .effectStarted(
          EffectRecord(
            id: id, startedByStep: 3, cancelID: "timer", startNanos: 7, kind: "concatenation",
            parentID: id, startedAfterStep: 3)),
        #"{"type":"effectStarted","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","step":3,"#
          + #""cancelID":"timer","file":null,"line":null,"startNs":7,"kind":"concatenation","#
          + #""parent":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","afterStep":3}"#
      ),
      (
        .gap(afterStep: 3, dropped: 4, reason: .client),
        #"{"type":"gap","afterStep":3,"dropped":4,"reason":"client"}"#
      ),
      (.historyEnd(lastStep: 9), #"{"type":"historyEnd","lastStep":9}"#),
      (.end(reason: "finished"), #"{"type":"end","reason":"finished"}"#),
    ]
    for (message, json) in messages {
      XCTAssertEqual(try roundTrip(message), json)
    }
  }

  func testHalfFramesWaitAndOversizedOnesAreRefused() throws {
    var reader = FrameReader(limit: 10)
    let frame = LiveMessage.hello(version: 1).frame()
    var big = FrameReader(limit: 10)
    big.append(frame)
    XCTAssertThrowsError(try big.next()) { error in
      XCTAssertEqual(
        error as? LiveProtocolError, .frameTooLarge(bytes: frame.count - 4, limit: 10))
    }
    reader.append([0, 0, 0, 3, UInt8(ascii: "{")])
    XCTAssertNil(try reader.next())
    reader.append([UInt8(ascii: " "), UInt8(ascii: "}"), 0, 0])
    XCTAssertEqual(try reader.next(), Array("{ }".utf8))
    XCTAssertNil(try reader.next())
    XCTAssertEqual(reader.pendingBytes, 2)
  }
}
