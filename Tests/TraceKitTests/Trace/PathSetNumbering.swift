import XCTest

@testable import TraceKit

/// The `changed` ids a trace writer must give steps: changed-path sets numbered by their JSON
/// bytes, in the order they are first met (0 for step 0's empty set). A test appends each step
/// through `append(step:texts:to:)` and then checks the written trace with `assertWritten`.
struct PathSetNumbering {
  private var expected: [Int] = [0]
  private var numbering: [[UInt8]: Int] = [Array("[]".utf8): 0]
  private var encoder = StepLine.Encoder()

  /// How many sets were met (step 0's empty one included).
  var count: Int { numbering.count }

  /// Appends step `step`, changing the paths named `texts`, to `writer`, and notes its set.
  mutating func append(step: Int, texts: [String], to writer: TraceWriter) throws {
    var json: [UInt8] = []
    encoder.writeStringArray(texts, into: &json)
    if numbering[json] == nil { numbering[json] = numbering.count }
    expected.append(numbering[json]!)
    try writer.append(
      StepRecord(
        step: step, monotonicNanos: 0, wallTime: 1_000, origin: .user, actionPath: "a",
        action: .null, changes: [], changedPaths: texts, stateHash: 0, reducerNanos: 0),
      state: .int(0))
  }

  /// Asserts that the closed trace at `path` gives every step the id of its set and holds each
  /// set once, as its bytes.
  func assertWritten(
    at path: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let database = try SQLiteConnection(path: path, mode: .readOnly)
    defer { database.close() }
    let steps = try database.prepare("SELECT changed FROM steps ORDER BY step")
    var changed: [Int] = []
    while try steps.step() { changed.append(Int(steps.int64(at: 0))) }
    XCTAssertEqual(changed, expected, file: file, line: line)
    let sets = try database.prepare("SELECT id, paths FROM path_sets ORDER BY id")
    var stored: [Int: [UInt8]] = [:]
    while try sets.step() { stored[Int(sets.int64(at: 0))] = Array(sets.text(at: 1).utf8) }
    XCTAssertEqual(
      stored, Dictionary(uniqueKeysWithValues: numbering.map { ($1, $0) }), file: file,
      line: line)
  }
}
