import TraceValues
import XCTest

final class TraceDiffTests: XCTestCase {
  private func json(_ text: String) throws -> TraceValue { try TraceValue(json: text) }

  private func lines(_ changes: [TraceChange]) -> [String] { changes.map(\.description) }

  /// Diffs, checks the exact changes (and, when given, the changed paths), and checks that
  /// they patch `old` into `new` and that the paths are those `changedPaths` finds.
  private func assertDiff(
    _ old: String, _ new: String, _ expected: [String], paths: [String]? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let a = try json(old)
    let b = try json(new)
    let (changes, changedPaths) = TraceDiff.changesAndPaths(from: a, to: b)
    XCTAssertEqual(lines(changes), expected, file: file, line: line)
    if let paths {
      XCTAssertEqual(changedPaths.map(\.description), paths, file: file, line: line)
    }
    XCTAssertEqual(
      Set(changedPaths), Set(TraceDiff.changedPaths(from: a, to: b)), file: file, line: line)
    var patched = a
    try TraceDiff.apply(changes, to: &patched)
    XCTAssertEqual(patched, b, file: file, line: line)
  }

  func testEqualValuesHaveNoChanges() throws {
    try assertDiff(#"{"a":[1,{"b":2}]}"#, #"{"a":[1,{"b":2}]}"#, [])
  }

  func testInsertionAtTheFrontOfIdentifiedArrayIsOneInsertNamedByItsID() throws {
    try assertDiff(
      #"{"todos":[{"id":1,"t":"a"},{"id":2,"t":"b"},{"id":3,"t":"c"}]}"#,
      #"{"todos":[{"id":0,"t":"z"},{"id":1,"t":"a"},{"id":2,"t":"b"},{"id":3,"t":"c"}]}"#,
      [#"insert todos[0] (id: 0, t: "z")"#], paths: ["todos[id: 0]"])
    try assertDiff(
      #"{"todos":[]}"#, #"{"todos":[{"id":"a"},{"id":"b"}]}"#,
      [#"insert todos[0] (id: "a")"#, #"insert todos[1] (id: "b")"#],
      paths: [#"todos[id: "a"]"#, #"todos[id: "b"]"#])
  }

  func testAValueReplacingNullIsChangedAtItsOwnPath() throws {
    try assertDiff(
      #"{"a":1,"briefing":null,"c":2}"#, #"{"a":1,"briefing":{"text":"hi","n":1},"c":2}"#,
      [#"set briefing (text: "hi", n: 1)"#], paths: ["briefing"])
  }

  func testAKeyAddedBetweenOthersSetsTheObjectButNamesTheKey() throws {
    try assertDiff(
      #"{"tags":{"a":1,"c":3},"n":0}"#, #"{"tags":{"a":1,"b":2,"c":4},"n":0}"#,
      ["set tags (a: 1, b: 2, c: 4)"], paths: ["tags.c", "tags.b"])
  }

  func testRemovalFromIdentifiedArrayIsOneRemoveByID() throws {
    try assertDiff(
      #"{"todos":[{"id":1,"t":"a"},{"id":2,"t":"b"},{"id":3,"t":"c"}]}"#,
      #"{"todos":[{"id":1,"t":"a"},{"id":3,"t":"c"}]}"#,
      ["remove todos[id: 2]"])
  }

  func testElementChangeIsSetAtItsIDPath() throws {
    try assertDiff(
      #"{"todos":[{"id":1,"title":"a"},{"id":3,"title":"b"}]}"#,
      #"{"todos":[{"id":1,"title":"a"},{"id":3,"title":"c"}]}"#,
      [#"set todos[id: 3].title "c""#])
  }

  func testSameIDsInPlaceAreAddressedByIDOnlyWhenUnique() throws {
    try assertDiff(
      #"[{"id":1,"t":"a"},{"id":2,"t":"b"}]"#, #"[{"id":1,"t":"a"},{"id":2,"t":"c"}]"#,
      [#"set [id: 2].t "c""#])
    try assertDiff(
      #"[{"id":1,"t":"a"},{"id":1,"t":"b"}]"#, #"[{"id":1,"t":"a"},{"id":1,"t":"c"}]"#,
      [#"set [1].t "c""#])
    try assertDiff(
      #"[{"id":1,"t":"a"},{"id":1,"t":"b"}]"#, #"[{"id":1,"t":"b"}]"#, ["remove [0]"])
  }

  func testReorderIsRemoveAndInsertOfTheMovedElement() throws {
    try assertDiff(
      #"[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]"#,
      #"[{"id":"b"},{"id":"c"},{"id":"d"},{"id":"a"}]"#,
      [#"remove [id: "a"]"#, #"insert [3] (id: "a")"#],
      paths: [#"[id: "a"]"#, #"[id: "a"]"#])
  }

  func testIndexedArraysDiffTheMiddleAfterCommonPrefixAndSuffix() throws {
    try assertDiff("[1,2,3,4]", "[1,9,3,4]", ["set [1] 9"])
    try assertDiff("[1,2,3]", "[1,7,8,2,3]", ["insert [1] 7", "insert [2] 8"])
    try assertDiff("[1,2,3,4,5]", "[1,5]", ["remove [3]", "remove [2]", "remove [1]"])
    try assertDiff("[1,2,3]", "[1,8,9,7]", ["set [1] 8", "set [2] 9", "insert [3] 7"])
  }

  func testObjectFieldsAreDiffedPerKey() throws {
    try assertDiff(
      #"{"a":1,"b":{"c":true,"d":"x"},"e":null}"#,
      #"{"a":1,"b":{"c":false,"d":"x"},"e":null,"f":[1]}"#,
      ["set b.c false", "set f [1]"])
    try assertDiff(#"{"a":1,"b":2,"c":3}"#, #"{"a":1,"c":4}"#, ["remove b", "set c 4"])
  }

  func testObjectWithReorderedKeysIsSetWhole() throws {
    try assertDiff(#"{"x":{"a":1,"b":2}}"#, #"{"x":{"b":2,"a":1}}"#, ["set x (b: 2, a: 1)"])
  }

  func testEnumCaseChangeSetsTheWholeValueAndSameCaseRecurses() throws {
    try assertDiff(
      #"{"mode":{"$case":"loading"}}"#,
      #"{"mode":{"$case":"loaded","_0":3}}"#,
      ["set mode .loaded(3)"])
    try assertDiff(
      #"{"destination":{"$case":"childDetail","_0":{"name":"a","n":1}}}"#,
      #"{"destination":{"$case":"childDetail","_0":{"name":"b","n":1}}}"#,
      [#"set destination.childDetail.name "b""#])
    try assertDiff(
      #"{"d":{"$case":"childDetail","_0":1}}"#, #"{"d":{"$case":"childDetail","_0":2}}"#,
      ["set d.childDetail 2"])
    try assertDiff(
      #"{"$case":"picked","date":"x","animated":true}"#,
      #"{"$case":"picked","date":"y","animated":true}"#,
      [#"set picked.date "y""#])
  }

  func testStringsDifferingOnlyInNormalizationAreAChange() throws {
    let old = TraceValue.object([TraceField("name", .string("caf\u{E9}"))])
    let new = TraceValue.object([TraceField("name", .string("cafe\u{301}"))])
    XCTAssertNotEqual(old, new)
    let changes = TraceDiff.changes(from: old, to: new)
    XCTAssertEqual(changes, [.set(TracePath([.key("name")]), .string("cafe\u{301}"))])
    var patched = old
    try TraceDiff.apply(changes, to: &patched)
    XCTAssertEqual(patched.stableHash, new.stableHash)
    XCTAssertNotEqual(TraceField("caf\u{E9}", .null), TraceField("cafe\u{301}", .null))
    try assertDiff(#"{"caf\u00e9":1}"#, #"{"cafe\u0301":1}"#, [#"set . ("cafe\#u{301}": 1)"#])
  }

  func testReflectedValuesAreLookedThrough() throws {
    try assertDiff(
      #"{"$reflected":"Foo","value":{"a":[1,2]}}"#,
      #"{"$reflected":"Foo","value":{"a":[1,3]}}"#,
      ["set a[1] 3"])
    try assertDiff(
      #"{"$reflected":"Foo","value":1}"#, #"{"$reflected":"Foo","value":2}"#,
      ["set . Foo(2)"])
    try assertDiff(
      #"{"$reflected":"Foo","value":1}"#, #"{"$reflected":"Bar","value":1}"#,
      ["set . Bar(1)"])
  }

  func testPatchErrorsNameTheChangeAndWhatWasFound() throws {
    let state = try json(#"{"todos":[{"id":1}],"n":3,"e":{"$case":"a","x":1,"y":2}}"#)
    let cases: [(TraceChange, String)] = [
      (
        .remove(TracePath([.index(2)])),
        "cannot apply remove at [2]: expected an array at the root, found an object"
      ),
      (
        .set(try TracePath(parsing: "todos[id: 9].t"), .null),
        "cannot apply set at todos[id: 9].t: todos has no element with id 9"
      ),
      (
        .insert(try TracePath(parsing: "todos[5]"), .null),
        "cannot apply insert at todos[5]: index 5 is out of range for an array of 1 elements"
          + " at todos"
      ),
      (
        .set(try TracePath(parsing: "n.x"), .null),
        "cannot apply set at n.x: expected an object or the enum case x at n, found an integer"
      ),
      (
        .remove(try TracePath(parsing: "missing")),
        #"cannot apply remove at missing: the root has no field "missing""#
      ),
      (.remove(.root), "cannot apply remove at .: the root can only be set"),
      (
        .insert(try TracePath(parsing: "todos[id: 1]"), .null),
        "cannot apply insert at todos[id: 1]: insert needs an array index as the last component"
      ),
      (
        .set(try TracePath(parsing: "e.b"), .null),
        "cannot apply set at e.b: expected an object or the enum case b at e,"
          + " found the enum case a"
      ),
      (
        .set(try TracePath(parsing: "e.a"), .null),
        "cannot apply set at e.a: the associated values of case a must be set as an object"
      ),
    ]
    for (change, message) in cases {
      var value = state
      XCTAssertThrowsError(try TraceDiff.apply([change], to: &value)) { error in
        XCTAssertEqual((error as? TracePatchError)?.description, message)
      }
      XCTAssertEqual(value, state, "a failed change leaves the value as it was")
    }
  }

  func testPatchMutatesALargeArrayInPlace() throws {
    var value = TraceValue.object([
      TraceField("items", .array((0..<10_000).map { .int(Int64($0)) }))
    ])
    func storage(_ value: TraceValue) -> UnsafeRawPointer? {
      guard case .object(let fields) = value, case .array(let items) = fields[0].value else {
        return nil
      }
      return items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    let before = storage(value)
    try TraceDiff.apply(
      [.set(try TracePath(parsing: "items[5000]"), .string("x"))], to: &value)
    XCTAssertNotNil(before)
    XCTAssertEqual(storage(value), before, "the array was copied instead of mutated")
    XCTAssertEqual(value.value(at: try TracePath(parsing: "items[5000]")), .string("x"))
  }

  func testPatchOfDiffGivesTheNewValueForGeneratedPairs() throws {
    var random = RandomTraceValue(seed: 0xD1FF)
    var differingPairs = 0
    for iteration in 0..<15_000 {
      let old = random.value(depth: 5)
      let new = iteration % 4 == 0 ? random.value(depth: 5) : random.mutate(old, depth: 5)
      let (changes, paths) = TraceDiff.changesAndPaths(from: old, to: new)
      if old != new { differingPairs += 1 }
      // The paths found while diffing are those the pairing of children gives (what the
      // inspector shows), and a change is at or above each of them.
      XCTAssertEqual(
        Set(paths), Set(TraceDiff.changedPaths(from: old, to: new)),
        "iteration \(iteration)\n\(old.jsonString)\n\(new.jsonString)\n\(lines(changes))")
      var patched = old
      do {
        try TraceDiff.apply(changes, to: &patched)
      } catch {
        XCTFail("iteration \(iteration): \(error)\n\(old)\n\(new)")
        continue
      }
      if patched != new {
        XCTFail("iteration \(iteration):\n\(old)\n\(new)\n\(lines(changes))")
      }
      // Every change survives its JSON Lines form.
      for change in changes {
        XCTAssertEqual(
          try TraceChange(jsonValue: TraceValue(json: change.jsonValue.jsonString)), change)
      }
    }
    XCTAssertGreaterThanOrEqual(differingPairs, 10_000)
  }

  func testChangesHaveADocumentedJSONForm() throws {
    let set = TraceChange.set(try TracePath(parsing: "todos[id: 3].title"), .string("b"))
    XCTAssertEqual(
      set.jsonValue.jsonString, #"{"op":"set","path":"todos[id: 3].title","value":"b"}"#)
    XCTAssertEqual(
      TraceChange.remove(TracePath([.index(2)])).jsonValue.jsonString,
      #"{"op":"remove","path":"[2]"}"#)
    XCTAssertEqual(
      TraceChange.insert(TracePath([.key("a"), .index(0)]), .null).jsonValue.jsonString,
      #"{"op":"insert","path":"a[0]","value":null}"#)
    XCTAssertEqual(try TraceChange(jsonValue: set.jsonValue), set)
  }

  func testMalformedChangesAreRejectedWithTheReason() throws {
    let cases: [(String, String)] = [
      ("[]", "invalid trace change: expected an object, found an array"),
      (#"{"path":"a"}"#, #"invalid trace change: expected a string "op""#),
      (#"{"op":"set","value":1}"#, #"invalid trace change: expected a string "path""#),
      (#"{"op":"set","path":"a"}"#, #"invalid trace change: expected a "value" for set"#),
      (
        #"{"op":"remove","path":"a","value":1}"#,
        #"invalid trace change: unexpected member "value""#
      ),
      (
        #"{"op":"move","path":"a"}"#,
        #"invalid trace change: unknown op "move" (expected set, remove or insert)"#
      ),
      (
        #"{"op":"remove","path":"a..b"}"#,
        #"invalid trace change: invalid path "a..b" at column 3: "#
          + #"expected a key name or '[' after '.'"#
      ),
    ]
    for (text, message) in cases {
      XCTAssertThrowsError(try TraceChange(jsonValue: json(text))) { error in
        XCTAssertEqual("\(error)", message)
      }
    }
  }
}
