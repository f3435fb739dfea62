import Foundation
import TestSupport
import XCTest

@testable import TraceKit

/// The trace writer inserts the effects of a commit `effectRowsPerInsert` to a statement and
/// the rest one by one: every column of every row is the one its record gave, in start order.
final class EffectRowBatchTests: XCTestCase {
  func id(_ n: Int) -> UUID {
    UUID(uuidString: String(format: "019A6C3E-5B21-7%03X-8000-0000000000%02X", n, n))!
  }

  /// Every column of the effects' rows and the sends, in rowid order, every value as text.
  func rows(_ path: String) throws -> [String] {
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let effects = try database.prepare("SELECT rowid, * FROM effects ORDER BY rowid")
    var rows: [String] = []
    while try effects.step() {
      rows.append(
        (0..<15).map { effects.isNull(at: $0) ? "-" : effects.text(at: $0) }
          .joined(separator: "|"))
    }
    let sends = try database.prepare("SELECT effect_id, step FROM effect_sends ORDER BY 1, 2")
    while try sends.step() { rows.append("send \(sends.text(at: 0)) \(sends.text(at: 1))") }
    return rows
  }

  func record(_ n: Int) -> EffectRecord {
    EffectRecord(
      id: id(n), startedByStep: 1 + n / 10, cancelID: n % 3 == 0 ? nil : "timer#\(n)",
      file: n % 4 == 0 ? nil : "Feature.swift", line: n % 4 == 0 ? nil : 10 + n,
      startNanos: UInt64(n) * 100, sentSteps: n % 5 == 0 ? [1 + n / 10] : [],
      kind: n % 6 == 0 ? "concatenation" : "run", parentID: n % 7 == 3 ? id(n - 1) : nil,
      startedAfterStep: n / 10)
  }

  func expected(_ n: Int, ended: Bool) -> String {
    let r = record(n)
    let end = ended ? "\(n * 100 + 50)|cancelled|cancelInFlight|\(2 + n / 10)" : "-|running|-|-"
    return [
      "\(n + 1)", UUIDText.string(r.id), "\(r.startedByStep)", r.cancelID ?? "-", r.file ?? "-",
      r.line.map(String.init) ?? "-", "\(n * 100)", end, r.kind ?? "-",
      r.parentID.map(UUIDText.string) ?? "-", "\(n / 10)", ended ? "\(1 + n / 10)" : "-",
    ].joined(separator: "|")
  }

  /// 37 effects in one commit (two statements of 16 and 5 rows one by one), every other one
  /// ended before it, every fifth with a send.
  func testEveryColumnOfEveryRowIsTheRecordsInStartOrder() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writer = try TraceWriter(
      path: path, metadata: TraceMetadata(rootReducer: "App", stateType: "S", actionType: "A"),
      initialState: .int(0), wallTime: 1_000)
    for n in 0..<37 {
      try writer.effectStarted(record(n))
      if n % 2 == 1 {
        try writer.effectEnded(
          id: id(n), endNanos: UInt64(n) * 100 + 50,
          outcome: .cancelled(reason: "cancelInFlight", byStep: 2 + n / 10),
          endedAfterStep: 1 + n / 10)
      }
    }
    XCTAssertEqual(try rows(path), [], "nothing before the commit")
    try writer.flush()
    let sends = (0..<37).filter { $0 % 5 == 0 }.map {
      "send \(UUIDText.string(id($0))) \(1 + $0 / 10)"
    }
    XCTAssertEqual(try rows(path), (0..<37).map { expected($0, ended: $0 % 2 == 1) } + sends)
  }
}
