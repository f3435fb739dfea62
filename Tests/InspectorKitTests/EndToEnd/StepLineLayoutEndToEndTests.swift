import Foundation
import TestSupport
import XCTest

/// Step lines written by hand into the sample's chunk (`TraceEditor.editChunkLines`). The
/// direct readers (`StepLine.directChanges`, `skipChanges`, `PathCache`, the action and
/// changes ranges) read a line laid out as the writer lays it out and hand any other layout to
/// the whole-line parse. Through the built inspector, on every command that reads lines:
/// - a line that means what the written one means, laid out another way, gives the answers
///   the written trace gives;
/// - a line that means something else gives the answers the same line gives through the
///   whole-line parse (its members in another order, which no direct reader takes);
/// - a line that repeats a member is refused by every reader in one line: readers that took
///   the first and readers that took the last would tell two stories.
final class StepLineLayoutEndToEndTests: EndToEndTestCase {
  static let commands: [[String]] = [
    ["replay", "TRACE"], ["show", "TRACE", "5"], ["diff", "TRACE", "5"], ["show", "TRACE", "1"],
    ["diff", "TRACE", "1"], ["log", "TRACE"], ["export", "TRACE"], ["diff", "TRACE", "0", "12"],
  ]

  static let toggle = #"{"$case":"child","_0":{"$case":"toggleTapped"}}"#
  static let increment = #"{"$case":"counter","_0":{"$case":"incrementTapped"}}"#

  /// Step 5's line (`child.isOn` set to true) with `changes` and `action` as given.
  static func line5(action: String = toggle, _ changes: String) -> String {
    #"{"step":5,"action":"# + action + #","changes":"# + changes + "}"
  }

  /// Step 1's line (`count` set to 1) with the value's text as given.
  static func line1(value: String) -> String {
    #"{"step":1,"action":"# + increment + #","changes":[{"op":"set","path":"count","value":"#
      + value + "}]}"
  }

  /// The line with its `changes` member before its `action`: read by the whole-line parse in
  /// every reader.
  static func reordered(_ line: String) -> String {
    guard let action = line.range(of: #","action":"#),
      let changes = line.range(of: #","changes":"#, range: action.upperBound..<line.endIndex)
    else { return line }
    let actionText = line[action.lowerBound..<changes.lowerBound]
    let rest = line[changes.lowerBound...].dropLast()
    return String(line[..<action.lowerBound]) + rest + actionText + "}"
  }

  /// A copy of the sample with its chunk's lines rewritten (each carrying its step), the
  /// line of step `step` replaced by `line` (nil: as written); in a directory of its own, so
  /// that every copy has the same name.
  func trace(_ variant: String, replacing step: Int, with line: String?) throws -> URL {
    let folder = directory.url.appendingPathComponent(variant)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("lines.rewind")
    try FileManager.default.copyItem(at: sample, to: copy)
    let editor = try TraceEditor(path: copy.path)
    try editor.editChunkLines(firstStep: 0) { lines in
      if let line { lines[step] = line }
    }
    editor.close()
    return copy
  }

  /// What each command says: status, stdout, and how many lines it wrote to stderr (a
  /// message names a byte where the parse stopped, which moves with the layout).
  func answers(_ trace: URL, exactErrors: Bool = false) throws -> [String] {
    try Self.commands.map { arguments in
      let output = try inspect(arguments, trace: trace)
      let errLines = output.err.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      XCTAssertLessThanOrEqual(errLines, 1, "\(arguments): \(output.err)")
      XCTAssert([0, 1, 2].contains(output.status), "\(arguments): \(output.status)")
      let err = exactErrors ? output.err : "\(errLines) line(s)"
      // An export that stops names the error in its document too.
      let out =
        exactErrors
        ? output.out
        : output.out.replacingOccurrences(
          of: #""error":".*""#, with: #""error":"…""#, options: .regularExpression)
      return "\(arguments.joined(separator: " ")): \(output.status)\n\(out)\(err)"
    }
  }

  func testALineOfTheSameMeaningInAnotherLayoutReadsAsWritten() throws {
    let written = try answers(try trace("written", replacing: 5, with: nil), exactErrors: true)
    XCTAssertTrue(written[0].hasPrefix("replay TRACE: 0\nreplay: 13 states"), written[0])
    let change = #"{"op":"set","path":"child.isOn","value":true}"#
    let variants = [
      Self.reordered(Self.line5("[" + change + "]")),
      Self.line5(#"[{"path":"child.isOn","value":true,"op":"set"}]"#),
      #"{"step":5, "action" : "# + Self.toggle
        + #" , "changes": [ { "op": "set", "path": "child.isOn", "value": true } ] }"#,
      Self.line5(#"[{"op":"set","path":"child.isOn","value": true}]"#),
      Self.line5(#"[{"op":"set","path":"ch\u0069ld.isOn","value":true}]"#),
      Self.line5(#"[{"op":"s\u0065t","path":"child.isOn","value":true}]"#),
      Self.line5(#"[{"op":"set","path":"child.isOn","value":true}, ]"#)
        .replacingOccurrences(of: ", ]", with: "]"),
      #"{"step":5,"\u0061ction":"# + Self.toggle + #","changes":["# + change + "]}",
      Self.line5("[" + change + "]").dropLast() + #","note":"a\/b\"c"}"#,
      Self.line5("[" + change + "]").dropLast() + #","deps":[]}"#,
      Self.line5(
        action: #"{"$case":"child","_0":{"$case":"toggle\u0054apped"}}"#, "[" + change + "]"),
    ]
    for (index, line) in variants.enumerated() {
      let edited = try answers(
        try trace("same-\(index)", replacing: 5, with: line), exactErrors: true)
      for (got, expected) in zip(edited, written) {
        XCTAssertEqual(got, expected, "line \(line)")
      }
    }
  }

  func testALineThatSaysSomethingElseReadsAsTheWholeLineParseReadsIt() throws {
    let written = try answers(try trace("written", replacing: 5, with: nil))
    let lines: [(step: Int, line: String)] = [
      (1, Self.line1(value: "1e0")),
      (1, Self.line1(value: "-0")),
      (1, Self.line1(value: "01")),
      (1, Self.line1(value: "-1")),
      (1, Self.line1(value: "1.5")),
      (1, Self.line1(value: "--1")),
      (1, Self.line1(value: "1-")),
      (1, Self.line1(value: "123456789012345678")),
      (1, Self.line1(value: "1234567890123456789")),
      (1, Self.line1(value: "9223372036854775808")),
      (1, Self.line1(value: #""1""#)),
      (1, Self.line1(value: "1,\"value\":2")),
      (1, Self.line1(value: "1,\"x\":2")),
      (5, Self.line5(#"[{"op":"set","path":"child.is\"On","value":true}]"#)),
      (5, Self.line5(#"[{"op":"set","path":"child.isOn\\","value":true}]"#)),
      (5, Self.line5(#"[{"op":"set","path":"child.isOn","value":"\",\"path\":\"count"}]"#)),
      (5, Self.line5(#"[{"op":"set","path":"child.isOn","value":{"path":"count"}}]"#)),
      (5, Self.line5(#"[{"op":"set","path":"child.isOn","path":"count","value":true}]"#)),
      (5, Self.line5(#"[{"op":"set","op":"remove","path":"child.isOn","value":true}]"#)),
      (5, Self.line5(#"[{"op":"remove","path":"child.isOn"}]"#)),
      (5, Self.line5(#"[{"op":"remove","path":"child.isOn","value":true}]"#)),
      (5, Self.line5(#"[{"op":"insert","path":"child.isOn","value":true}]"#)),
      (5, Self.line5("[]")),
      (5, Self.line5("{}")),
      (5, Self.line5("null")),
      (5, Self.line5(#"[{"op":"set","path":"child.isOn","value":true},]"#)),
      (
        5,
        Self.line5(
          #"[{"op":"set","path":"child.isOn","value":true},"#
            + #"{"op":"set","path":"child.isOn","value":false}]"#)
      ),
    ]
    for (index, (step, line)) in lines.enumerated() {
      let direct = try answers(try trace("else-\(index)", replacing: step, with: line))
      let whole = try answers(
        try trace("else-\(index)-whole", replacing: step, with: Self.reordered(line)))
      for (got, expected) in zip(direct, whole) {
        // `log` reads a line's action alone: in the writer's layout it shows the action of a
        // line whose changes are damaged (every command that reads them refuses the line);
        // the whole-line parse of another layout refuses the line.
        if got.hasPrefix("log TRACE: 0\n"), expected.hasPrefix("log TRACE: 2\n") {
          XCTAssertEqual(got, written[5], "line \(line)")
          continue
        }
        XCTAssertEqual(got, expected, "line \(line)")
      }
      // Not one of these is the written step: no command calls the trace fine.
      XCTAssertFalse(direct[0].hasPrefix("replay TRACE: 0"), "line \(line): \(direct[0])")
    }
  }

  /// A line cut anywhere is refused by every reader in one line.
  func testACutLineIsRefusedByEveryReader() throws {
    let line = Self.line5(#"[{"op":"set","path":"child.isOn","value":true}]"#)
    for cut in stride(from: 9, to: line.utf8.count, by: 7) {
      let text = String(decoding: Array(line.utf8.prefix(cut)), as: UTF8.self)
      let read = try answers(try trace("cut-\(cut)", replacing: 5, with: text))
      // Steps 1 and 0…12 are read without step 5's line (12 is a keyframe).
      for answer in read
      where !["show TRACE 1", "diff TRACE 1", "diff TRACE 0 12"].contains(where: answer.hasPrefix) {
        if answer.hasPrefix("export ") || answer.hasPrefix("log ") {
          // A log prints the steps before; an export that stops ends its document with the
          // error.
          XCTAssertTrue(answer.contains("TRACE: 2\n"), "cut at \(cut): \(answer)")
          XCTAssertTrue(answer.hasSuffix("\n1 line(s)"), "cut at \(cut): \(answer)")
        } else {
          XCTAssertTrue(answer.hasSuffix(": 2\n1 line(s)"), "cut at \(cut): \(answer)")
        }
      }
    }
  }

  /// A repeated member: the direct readers read the first, the whole-line parse would read
  /// the last; every reader refuses the line instead, with the same line.
  func testARepeatedMemberIsRefusedByEveryReader() throws {
    let change = #"[{"op":"set","path":"child.isOn","value":true}]"#
    let other = #"[{"op":"set","path":"child.isOn","value":false}]"#
    let cases: [(line: String, member: String)] = [
      (Self.line5(change).dropLast() + #","changes":"# + other + "}", "changes"),
      (
        #"{"step":5,"action":"# + Self.toggle + #","action":null,"changes":"# + change + "}",
        "action"
      ),
      (Self.line5(change).dropLast() + #","action":null}"#, "action"),
      (Self.line5(change).dropLast() + #","step":5}"#, "step"),
      (Self.line5(change).dropLast() + #","deps":[],"deps":[]}"#, "deps"),
    ]
    for (index, (line, member)) in cases.enumerated() {
      let trace = try trace("twice-\(index)", replacing: 5, with: line)
      for arguments in [["replay", "TRACE"], ["show", "TRACE", "5"], ["diff", "TRACE", "5"]] {
        try assertFails(
          arguments, trace: trace,
          line: "inspector: payload chunk is damaged: '\(member)' appears twice in the line "
            + "(lines.rewind, step 5, chunk 0)")
      }
      let export = try inspect(["export", "TRACE"], trace: trace)
      XCTAssertEqual(export.status, 2, line)
      let log = try inspect(["log", "TRACE"], trace: trace)
      XCTAssertEqual(
        log.err,
        "inspector: payload chunk is damaged: '\(member)' appears twice in the line "
          + "(lines.rewind, step 5, chunk 0)\n", line)
    }
  }
}
