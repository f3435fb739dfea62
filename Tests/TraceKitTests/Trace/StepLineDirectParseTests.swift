import XCTest

@testable import TraceKit

/// The direct change reader (with its path cache) and the action-only parse give exactly what
/// the general parse of the whole line gives.
final class StepLineDirectParseTests: XCTestCase {
  func written(_ action: TraceValue, _ changes: [TraceChange]) -> [UInt8] {
    let record = StepRecord(
      step: 3, monotonicNanos: 0, wallTime: 0, origin: .user, actionPath: "a", action: action,
      changes: changes, changedPaths: [], stateHash: 0, reducerNanos: 0,
      dependencies: [DependencyRead(key: "uuid", value: .string("u"))])
    var bytes: [UInt8] = []
    var encoder = StepLine.Encoder()
    StepLine.write(record, into: &bytes, encoder: &encoder)
    return Array(bytes.dropLast())
  }

  /// `body` with `bytes` whole, cut at every byte from `start`, and with every byte from
  /// `start` on replaced by each of `replacements`; each with what was done to it.
  func variants(
    of bytes: [UInt8], from start: Int, replacing replacements: [UInt8],
    _ body: ([UInt8], String) -> Void
  ) {
    body(bytes, "whole")
    for cut in start..<bytes.count { body(Array(bytes[..<cut]), "cut at \(cut)") }
    for place in start..<bytes.count {
      for byte in replacements where byte != bytes[place] {
        var damaged = bytes
        damaged[place] = byte
        body(damaged, "\(UnicodeScalar(byte)) at \(place)")
      }
    }
  }

  func testDirectChangesEqualTheGeneralParseForEveryOpAndValueKind() throws {
    let values: [TraceValue] = [
      .int(0), .int(-7), .int(123_456_789_012_345_678), .int(.max), .int(.min),
      .uint(UInt64.max), .double(2.5), .double(-0.0), .string("a \"quoted\" \\ ]}"),
      .string(""), .string("é \u{1}"), .null, .bool(true), .array([.int(1), .string(",")]),
      .object([TraceField("x", .int(1))]), .enumCase("on", [TraceField("_0", .int(2))]),
    ]
    let paths = try ["count", "todos[id: 3].title", "path[2]", "[\"a \\\"key\\\"\"]"].map {
      try TracePath(parsing: $0)
    }
    let cache = StepLine.PathCache()
    for value in values {
      for path in paths {
        let changes: [TraceChange] = [.set(path, value), .remove(path), .insert(path, value)]
        let bytes = written(.enumCase("x", [TraceField("s", .string("\\\""))]), changes)
        try bytes.withUnsafeBytes { line in
          let general = try StepLine(parsing: line)
          XCTAssertEqual(general.changes, changes)
          // Twice: the second time the paths come from the cache.
          XCTAssertEqual(try StepLine.changes(parsing: line, paths: cache), changes)
          XCTAssertEqual(try StepLine.changes(parsing: line, paths: cache), changes)
          XCTAssertEqual(try StepLine.action(parsing: line), general.action)
        }
      }
    }
  }

  /// Typed replay finds the end of the changes by their writer's layout (`skipChanges`); it
  /// must end exactly where the token scan (`skipValue`) ends, or fail where it fails, for the
  /// writer's lines and for those lines cut short or with any byte of the changes replaced.
  func testSkipChangesEndsWhereTheScanEndsOnWrittenAndDamagedLines() throws {
    let values: [TraceValue] = [
      .int(-7), .double(2.5), .string("a \"quoted\" \\ ]}"), .string(""), .null,
      .bool(true), .array([.int(1), .string(",")]), .object([TraceField("x", .int(1))]),
    ]
    let paths = try ["count", "todos[id: 3].title", "[\"a \\\"key\\\"\"]"].map {
      try TracePath(parsing: $0)
    }
    let replacements = Array("\"\\{}[],:x ".utf8)
    var compared = 0
    for value in values {
      for path in paths {
        for changes: [TraceChange] in [
          [], [.set(path, value)], [.remove(path)], [.insert(path, value), .set(path, value)],
        ] {
          let bytes = written(.enumCase("plus", []), changes)
          let start = try XCTUnwrap(
            bytes.withUnsafeBytes { line in
              StepLine.actionStart(line).flatMap { action in
                StepLine.skipValue(line, from: action).flatMap {
                  StepLine.changesStart(line, afterAction: action..<$0)
                }
              }
            })
          func same(_ line: [UInt8], _ what: String) {
            line.withUnsafeBytes { line in
              XCTAssertEqual(
                StepLine.skipChanges(line, from: start), StepLine.skipValue(line, from: start),
                "\(what): \(String(decoding: line, as: UTF8.self))")
            }
            compared += 1
          }
          variants(of: bytes, from: start, replacing: replacements, same)
        }
      }
    }
    XCTAssertGreaterThan(compared, 10_000)
  }

  /// The cache keeps the last change head read (`{"op":"set","path":…,"value":`), and a
  /// change that starts with its bytes is read from it: what is read must not depend on it.
  /// Each written line is read after a line that keeps the head of its first change, whole,
  /// cut short, and with each byte of its changes replaced, and must read as with a new cache
  /// (which keeps no head): the same changes, or the same failure.
  func testAKeptChangeHeadReadsAsANewCacheOnWrittenAndDamagedLines() throws {
    let values: [TraceValue] = [
      .int(14), .int(-7), .int(0), .double(2.5), .string("a"), .null, .array([.int(1)]),
    ]
    let paths = try ["count", "todos[id: 3].title"].map { try TracePath(parsing: $0) }
    let replacements = Array("\"\\{}[],:x 5-".utf8)
    func read(_ line: [UInt8], _ cache: StepLine.PathCache) -> String {
      line.withUnsafeBytes { line in
        do throws(StepLine.Failure) {
          return "\(try StepLine.changes(parsing: line, paths: cache))"
        } catch {
          return "failure: \(error.reason)"
        }
      }
    }
    var compared = 0
    for value in values {
      for path in paths {
        for changes: [TraceChange] in [
          [.set(path, value)], [.insert(path, value), .set(path, .int(15))],
          [.set(path, value), .remove(path)],
        ] {
          let bytes = written(.enumCase("plus", []), changes)
          let keeper = written(.enumCase("minus", []), [changes[0]])
          let cache = StepLine.PathCache()
          func same(_ line: [UInt8], _ what: String) {
            _ = read(keeper, cache)
            XCTAssertEqual(
              read(line, cache), read(line, StepLine.PathCache()),
              "\(what): \(String(decoding: line, as: UTF8.self))")
            compared += 1
          }
          // The head is kept, and the whole line's first change is read from it.
          _ = read(keeper, cache)
          let start = try XCTUnwrap(
            bytes.withUnsafeBytes { line in cache.changesStart(line).map { $0 + 1 } })
          bytes.withUnsafeBytes { line in
            XCTAssertNotNil(cache.head(at: start, in: line, before: line.count))
          }
          variants(of: bytes, from: start, replacing: replacements, same)
        }
      }
    }
    XCTAssertGreaterThan(compared, 10_000)
  }

  /// A line that begins as a recent line began (from its action's key through its `changes`
  /// key) has its changes found where that line's were: every such line, whole, cut and
  /// damaged from its action on, reads as it reads through a new cache.
  func testAKeptLineStartReadsAsANewCacheOnWrittenAndDamagedLines() throws {
    let actions: [TraceValue] = [
      .enumCase("plus", []), .enumCase("plus", [TraceField("_0", .int(1))]), .int(12),
      .string("plus\",\"changes\":[]"), .null, .array([.int(1)]),
    ]
    let path = try TracePath(parsing: "count")
    let replacements = Array("\"\\{}[],:x 5-".utf8)
    func read(_ line: [UInt8], _ cache: StepLine.PathCache) -> String {
      line.withUnsafeBytes { line in
        do throws(StepLine.Failure) {
          var changes: [TraceChange] = []
          try StepLine.changes(
            parsing: line, paths: cache, stepEnd: StepLine.peekStepEnd(line)?.comma,
            into: &changes)
          return "\(changes)"
        } catch {
          return "failure: \(error.reason)"
        }
      }
    }
    var compared = 0
    var kept = 0
    for action in actions {
      for changes: [TraceChange] in [
        [.set(path, .int(14))], [.set(path, .string("a")), .remove(path)],
      ] {
        let bytes = written(action, changes)
        let keeper = written(action, [.set(path, .int(-3))])
        let cache = StepLine.PathCache()
        let stepEnd = try XCTUnwrap(bytes.withUnsafeBytes { StepLine.peekStepEnd($0)?.comma })
        // The keeper's start is kept; the line's changes start is found from it.
        _ = read(keeper, cache)
        bytes.withUnsafeBytes { line in
          if cache.keptChangesStart(line, stepEnd: stepEnd) != nil { kept += 1 }
        }
        variants(of: bytes, from: stepEnd + 1, replacing: replacements) { line, what in
          _ = read(keeper, cache)
          XCTAssertEqual(
            read(line, cache), read(line, StepLine.PathCache()),
            "\(what): \(String(decoding: line, as: UTF8.self))")
          compared += 1
        }
      }
    }
    XCTAssertEqual(kept, actions.count * 2)
    XCTAssertGreaterThan(compared, 5_000)
  }

  /// The cache remembers recent actions' bytes to find where the changes start; actions that
  /// begin with a remembered one (a longer number, a string with more after it, an object
  /// with more fields, the same text inside a longer string) must still be read whole.
  func testRecentActionsThatPrefixTheNextActionDoNotCutIt() throws {
    let actions: [TraceValue] = [
      .int(1), .int(12), .int(1), .string("plus"), .string("plus\",\"changes\":[]"),
      .string("plus"), .enumCase("plus", []), .enumCase("plus", [TraceField("_0", .int(1))]),
      .enumCase("plus", []), .object([TraceField("a", .int(1))]),
      .object([TraceField("a", .int(1)), TraceField("b", .int(2))]), .null, .bool(true),
      .array([.int(1)]), .array([.int(1), .int(2)]), .int(12), .int(1),
    ]
    let path = try TracePath(parsing: "count")
    let cache = StepLine.PathCache()
    for round in 0..<3 {
      for (index, action) in actions.enumerated() {
        let changes: [TraceChange] = [.set(path, .int(Int64(index * 10 + round)))]
        let bytes = written(action, changes)
        try bytes.withUnsafeBytes { line in
          XCTAssertEqual(
            try StepLine.changes(parsing: line, paths: cache), changes, "\(action)")
          XCTAssertEqual(try StepLine(parsing: line).changes, changes)
          XCTAssertEqual(
            try actionText(StepLine.replayParts(parsing: line, paths: cache), line),
            try actionText(StepLine.replayParts(parsing: line), line))
          XCTAssertEqual(
            try actionText(StepLine.replayParts(parsing: line, paths: cache), line),
            action.jsonString)
        }
      }
    }
  }

  func actionText(_ parts: StepLine.ReplayParts, _ line: UnsafeRawBufferPointer) -> String {
    switch parts.action {
    case .range(let range): String(decoding: line[range], as: UTF8.self)
    case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  func testSmallIntegerReadsOnlyWhatTheGeneralParserReadsAsAnInt() {
    func read(_ text: String) -> Int64? {
      Array(text.utf8).withUnsafeBytes { StepLine.smallInteger($0) }
    }
    XCTAssertEqual(read("0"), 0)
    XCTAssertEqual(read("-12"), -12)
    XCTAssertEqual(read("999999999999999999"), 999_999_999_999_999_999)
    XCTAssertNil(read("1234567890123456789"))
    XCTAssertNil(read("01"))
    XCTAssertNil(read("-"))
    XCTAssertNil(read("2.5"))
    XCTAssertNil(read("1e3"))
    XCTAssertNil(read("\"1\""))
  }

  func testPlainStringReadsOnlyPrintableASCIIWithoutEscapes() {
    func read(_ text: String) -> String? {
      Array(text.utf8).withUnsafeBytes { StepLine.plainString($0) }
    }
    XCTAssertEqual(read(#""step 1""#), "step 1")
    XCTAssertEqual(read("\"\""), "")
    XCTAssertNil(read(#""a\"b""#))
    XCTAssertNil(read("\"é\""))
    XCTAssertNil(read("\"a\tb\""))
    XCTAssertNil(read(#""a"#))
    XCTAssertNil(read("12"))
  }

  func testAnUnexpectedLayoutFallsBackToTheGeneralParse() throws {
    let text = #"{"step":3,"action":null,"changes":[{"path":"count","op":"set","value":1}]}"#
    try Array(text.utf8).withUnsafeBytes { line in
      XCTAssertEqual(
        try StepLine.changes(parsing: line, paths: StepLine.PathCache()),
        [.set(try TracePath(parsing: "count"), .int(1))])
    }
  }

  func testAValueThatIsNotJSONIsReportedAsADamagedLine() throws {
    let text = #"{"step":3,"action":null,"changes":[{"op":"set","path":"count","value":tru}]}"#
    try Array(text.utf8).withUnsafeBytes { line in
      XCTAssertThrowsError(try StepLine.changes(parsing: line, paths: StepLine.PathCache()))
    }
  }

  /// Cached paths are found by their bytes at the path's place in the line; paths whose text
  /// begins with a cached one (a longer key, an escaped quote inside, a subscript) must
  /// still be read whole, and each is read the same whether it is cached or not.
  func testCachedPathsThatPrefixTheNextPathDoNotCutIt() throws {
    let texts = [
      "a", "ab", "a", "[\"a\\\"b\"]", "a[1]", "[\"a\"]", "[\"a\\\"\"]", "ab", "a",
    ]
    let paths = try texts.map { try TracePath(parsing: $0) }
    XCTAssertEqual(Set(paths).count, 5)
    let cache = StepLine.PathCache()
    for round in 0..<3 {
      for (index, path) in paths.enumerated() {
        let changes: [TraceChange] =
          index % 2 == 0
          ? [.set(path, .int(Int64(round))), .remove(path)]
          : [.remove(path), .insert(path, .string("\(index)"))]
        let bytes = written(.enumCase("plus", []), changes)
        try bytes.withUnsafeBytes { line in
          XCTAssertEqual(try StepLine(parsing: line).changes, changes)
          var reused: [TraceChange] = [.remove(paths[0])]
          try StepLine.changes(parsing: line, paths: cache, into: &reused)
          XCTAssertEqual(reused, changes, "round \(round), path \(texts[index])")
        }
      }
    }
  }
}
