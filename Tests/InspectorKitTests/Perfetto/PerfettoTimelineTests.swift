import Foundation
import TraceKit
import XCTest

@testable import InspectorKit

/// The Perfetto export in process, on traces held in memory: the exact document for a small
/// session, and the cases a recorded file seldom shows (steps sharing one instant of a virtual
/// clock, an effect that sends at the instant it starts, a time that goes back).
final class PerfettoTimelineTests: XCTestCase {
  func export(_ source: MemoryTraceSource, _ options: [String] = []) -> SampleTrace.Result {
    SampleTrace.run(["export", "memory.rewind", "--format", "perfetto"] + options, source: source)
  }

  func testTheDocumentOfASmallSession() {
    let result = export(SampleTrace.source())
    XCTAssertEqual(result.err, "")
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(TraceEventValidator.problems(in: Data(result.out.utf8)), [])
    let a = SampleTrace.effectA.uuidString
    let b = SampleTrace.effectB.uuidString
    XCTAssertEqual(
      result.out,
      """
      {"otherData":{"format":"rewind-perfetto","version":1,"trace":"memory.rewind",\
      "rootReducer":"AppFeature","stateType":"AppFeature.State","actionType":"AppFeature.Action",\
      "range":{"from":0,"to":4}},
      "traceEvents":[
      {"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"AppFeature"}},
      {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"store (AppFeature.State)"}},
      {"ph":"M","name":"thread_sort_index","pid":1,"tid":1,"args":{"sort_index":0}},
      {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"recorder (dropped steps)"}},
      {"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":1}},
      {"ph":"X","cat":"step","name":"initial state","ts":0.000,"dur":1.000,"pid":1,"tid":1,\
      "args":{"step":0,"action":"","origin":"initial","changed":[],"reducerNanos":1000}},
      {"ph":"X","cat":"step","name":"counter.incrementTapped","ts":250000.000,"dur":1.000,\
      "pid":1,"tid":1,"args":{"step":1,"action":"counter.incrementTapped","origin":"user",\
      "changed":["count"],"reducerNanos":1000}},
      {"ph":"X","cat":"step","name":"todos.added","ts":500000.000,"dur":1.000,"pid":1,"tid":1,\
      "bind_id":3,"flow_out":true,"args":{"step":2,"action":"todos.added","origin":"user",\
      "changed":["todos[0]"],"reducerNanos":1000}},
      {"ph":"b","cat":"effect","id":"\(a)","name":"Todos.swift:41","ts":500000.000,"pid":1,\
      "tid":1,"bind_id":3,"flow_in":true,"args":{"id":"\(a)","startedByStep":2,"cancelID":null,\
      "source":"/src/Todos.swift:41","outcome":"finished","sentSteps":[3]}},
      {"ph":"n","cat":"effect","id":"\(a)","name":"sends step 3","ts":749999.999,"pid":1,\
      "tid":1,"bind_id":4,"flow_out":true},
      {"ph":"X","cat":"step","name":"todos.toggled","ts":750000.000,"dur":1.000,"pid":1,"tid":1,\
      "bind_id":4,"flow_in":true,"args":{"step":3,"action":"todos.toggled",\
      "origin":"effect:\(a)","changed":["mode","todos[id: 1].done"],"reducerNanos":1000}},
      {"ph":"e","cat":"effect","id":"\(a)","name":"Todos.swift:41","ts":760000.000,"pid":1,\
      "tid":1},
      {"ph":"X","cat":"step","name":"child.toggled","ts":1000000.000,"dur":1.000,"pid":1,\
      "tid":1,"bind_id":5,"flow_out":true,"args":{"step":4,"action":"child.toggled",\
      "origin":"user","changed":["child.isOn","count"],"reducerNanos":1000}},
      {"ph":"b","cat":"effect","id":"\(b)","name":"timer","ts":1000000.000,"pid":1,"tid":1,\
      "bind_id":5,"flow_in":true,"args":{"id":"\(b)","startedByStep":4,"cancelID":"timer",\
      "source":"/src/Child.swift:12","outcome":"unfinished","sentSteps":[]}},
      {"ph":"e","cat":"effect","id":"\(b)","name":"timer","ts":1000001.000,"pid":1,"tid":1}
      ]}

      """)
  }

  func testStepsAtOneInstantOfAVirtualClockNeverOverlap() throws {
    let source = SampleTrace.source()
    source.times = [0, 1_000, 1_000, 1_000, 5_000]
    source.reducerTimes = [0, 400, 300, 200, 100]
    source.effectList = []
    let result = export(source)
    XCTAssertEqual(TraceEventValidator.problems(in: Data(result.out.utf8)), [])
    let slices = result.out.split(separator: "\n").filter { $0.contains("\"cat\":\"step\"") }
    XCTAssertEqual(
      slices.map { line in
        line.split(separator: ",").filter { $0.hasPrefix("\"ts\"") || $0.hasPrefix("\"dur\"") }
          .joined(separator: ",")
      },
      [
        "\"ts\":0.000,\"dur\":0.000", "\"ts\":1.000,\"dur\":0.000", "\"ts\":1.000,\"dur\":0.000",
        "\"ts\":1.000,\"dur\":0.200", "\"ts\":5.000,\"dur\":0.100",
      ])
    // The reducer's own time stays in the args.
    XCTAssertTrue(slices[1].contains("\"reducerNanos\":400"))
  }

  func testAnEffectSendingAtTheInstantItStartedHasNoArrowButStaysValid() {
    let source = SampleTrace.source()
    source.times = [0, 1_000, 2_000, 2_000, 3_000]
    source.effectList = [
      EffectRecord(
        id: SampleTrace.effectA, startedByStep: 2, startNanos: 2_000, endNanos: 2_000,
        outcome: .finished, sentSteps: [3])
    ]
    let result = export(source)
    XCTAssertEqual(TraceEventValidator.problems(in: Data(result.out.utf8)), [])
    XCTAssertFalse(result.out.contains("\"ph\":\"n\""))
    XCTAssertTrue(result.out.contains("\"ph\":\"b\""))
  }

  func testARangeStartsItsArrowsAtItsFirstStep() {
    let result = export(SampleTrace.source(), ["--from", "3", "--to", "4"])
    XCTAssertEqual(TraceEventValidator.problems(in: Data(result.out.utf8)), [])
    // Effect A started at step 2, outside the range: step 3 has no arrow from it.
    XCTAssertFalse(result.out.contains("\"id\":\"\(SampleTrace.effectA.uuidString)\""))
    XCTAssertFalse(result.out.contains("\"flow_in\":true,\"args\":{\"step\":3"))
  }

  func testALongNameIsCutOnTheTimelineAndKeptWholeInTheArgs() {
    let source = SampleTrace.source()
    let cancelID = String(repeating: "id.", count: 100)
    source.effectList[1].cancelID = cancelID
    let result = export(source)
    XCTAssertEqual(TraceEventValidator.problems(in: Data(result.out.utf8)), [])
    let cut = String(cancelID.prefix(200)) + "…"
    XCTAssertTrue(result.out.contains(#""ph":"b","cat":"effect","id":""#
      + SampleTrace.effectB.uuidString + #"","name":""# + cut + #"""#))
    XCTAssertTrue(result.out.contains(#""cancelID":""# + cancelID + #"""#))
  }

  func testATimeThatGoesBackIsDamageAndTheDocumentStillEnds() {
    let source = SampleTrace.source()
    source.times = [0, 1_000, 3_000, 2_000, 4_000]
    let result = export(source)
    XCTAssertEqual(result.status, 2)
    let line =
      "index row is damaged: step 3 has time 2000 ns, before step 2's 3000 ns "
      + "(memory.rewind, step 3)"
    XCTAssertEqual(result.err, "inspector: " + line + "\n")
    XCTAssertTrue(result.out.hasSuffix("\n],\n\"error\":\"\(line)\"}\n"))
    XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(result.out.utf8)))
  }
}
