import Foundation
import XCTest

/// The validator the Perfetto export is checked with finds each broken rule.
final class TraceEventValidatorTests: XCTestCase {
  func problems(_ events: [String]) -> [String] {
    TraceEventValidator.problems(
      in: Data(("{\"traceEvents\":[" + events.joined(separator: ",") + "]}").utf8))
  }

  let slice = #"{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1"#

  func testAValidDocumentHasNoProblems() {
    XCTAssertEqual(
      problems([
        #"{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"store"}}"#,
        slice + #","bind_id":7,"flow_out":true}"#,
        #"{"ph":"b","cat":"e","id":"x","name":"load","ts":1,"pid":1,"tid":1,"# + #""bind_id":7,"#
          + #""flow_in":true}"#,
        #"{"ph":"n","cat":"e","id":"x","name":"send","ts":2,"pid":1,"tid":1}"#,
        #"{"ph":"e","cat":"e","id":"x","name":"load","ts":5,"pid":1,"tid":1}"#,
      ]), [])
  }

  func testMissingFieldsAndUnknownPhases() {
    XCTAssertEqual(
      problems([
        #"{"ph":"Q","name":"a","ts":1,"pid":1,"tid":1}"#,
        #"{"ph":"X","ts":1,"dur":1,"pid":1,"tid":1}"#,
        #"{"ph":"X","name":"a","ts":1,"dur":1}"#,
        #"{"ph":"X","name":"a","pid":1,"tid":1,"dur":1}"#,
        #"{"ph":"X","name":"a","ts":1,"pid":1,"tid":1}"#,
        #"{"ph":"b","name":"a","ts":1,"pid":1,"tid":1}"#,
        #"{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{}}"#,
      ]),
      [
        "event 0 (Q): unknown phase", "event 1 (X): no name", "event 2 (X): no pid or tid",
        "event 3 (X): no ts, or a negative one", "event 4 (X): complete event without a dur ≥ 0",
        "event 5 (b): async event without cat and id",
        "event 6 (M): thread_name without args.name",
      ])
  }

  func testTimeGoingBackAndSlicesOverlappingInPart() {
    XCTAssertEqual(
      problems([
        #"{"ph":"X","name":"a","ts":5,"dur":4,"pid":1,"tid":1}"#,
        #"{"ph":"X","name":"b","ts":6,"dur":1,"pid":1,"tid":1}"#,
        #"{"ph":"X","name":"c","ts":8,"dur":3,"pid":1,"tid":1}"#,
        #"{"ph":"X","name":"d","ts":2,"dur":1,"pid":1,"tid":1}"#,
      ]),
      [
        "event 2 (X): slice c at 8.0 overlaps the slice ending at 9.0 in part",
        "event 3 (X): ts 2.0 goes back on thread 1 1 (last 8.0)",
      ])
  }

  func testAsyncEventsThatDoNotPair() {
    XCTAssertEqual(
      problems([
        #"{"ph":"n","cat":"e","id":"x","name":"send","ts":1,"pid":1,"tid":1}"#,
        #"{"ph":"b","cat":"e","id":"x","name":"load","ts":2,"pid":1,"tid":1}"#,
        #"{"ph":"e","cat":"e","id":"x","name":"save","ts":3,"pid":1,"tid":1}"#,
        #"{"ph":"b","cat":"e","id":"y","name":"load","ts":2,"pid":1,"tid":1}"#,
      ]),
      [
        "event 0 (n): instant outside any open slice",
        "event 2 (e): end of save matches no open begin on async e x",
        "async e x: load never ended", "async e y: load never ended",
      ])
  }

  func testFlowsThatDoNotPair() {
    XCTAssertEqual(
      problems([
        slice + #","bind_id":1,"flow_in":true}"#,
        #"{"ph":"X","name":"b","ts":4,"dur":1,"pid":1,"tid":1,"bind_id":2,"flow_out":true}"#,
        #"{"ph":"X","name":"c","ts":6,"dur":1,"pid":1,"tid":1,"bind_id":2,"flow_out":true}"#,
        #"{"ph":"n","cat":"e","id":"x","name":"n","ts":6,"pid":1,"tid":1,"bind_id":3,"#
          + #""flow_out":true}"#,
        #"{"ph":"X","name":"d","ts":6,"dur":0,"pid":1,"tid":1,"bind_id":3,"flow_in":true}"#,
        #"{"ph":"e","cat":"e","id":"x","name":"n","ts":7,"pid":1,"tid":1,"bind_id":4,"#
          + #""flow_out":true}"#,
        #"{"ph":"X","name":"f","ts":8,"dur":0,"pid":1,"tid":1,"bind_id":5}"#,
      ]),
      [
        "event 0 (X): flow 1 continues or ends before it began",
        "event 2 (X): flow 2 begins twice",
        "event 3 (n): instant outside any open slice",
        "event 4 (X): flow 3 continues at 6.0, not after it began",
        "event 5 (e): end of n matches no open begin on async e x",
        "event 5 (e): flow 4 on an event without a slice",
        "event 6 (X): flow 5 without a direction",
        "flow 2 begins and never ends", "flow 4 begins and never ends",
      ])
  }
}
