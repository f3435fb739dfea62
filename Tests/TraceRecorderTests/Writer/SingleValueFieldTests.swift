import ComposableCore
import Foundation
import TraceKit
import XCTest

@testable import TraceRecorder

/// Fields that write one single value (optionals, `@PresentationState`, raw-value enums,
/// hand-written wrappers) are encoded as what they wrap (`WalkedWrapper` for the first two,
/// `SingleFieldWalker` for the others): a change deep inside a presented child re-encodes only
/// its path, and every step is exactly what `TraceValueEncoder` writes for the whole state.
final class SingleValueFieldTests: XCTestCase {
  enum Shape: Codable, Equatable, Sendable {
    case none
    case circle(radius: Double)
    case labelled(String, Int?)
  }

  enum Level: String, Codable, Sendable {
    case low, high = "very \"high\""
  }

  /// A hand-written wrapper that writes its value through a single-value container.
  struct Tagged<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    var value: Value

    init(_ value: Value) { self.value = value }
    init(from decoder: Decoder) throws {
      value = try decoder.singleValueContainer().decode(Value.self)
    }
    func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  final class Cache: Codable, @unchecked Sendable {
    var hits = 0
  }

  /// Holds a class instance: recorded as a placeholder, whole.
  struct Holder: Codable, Sendable {
    var cache = Cache()
    var note = "holder"
  }

  struct Row: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
  }

  struct Detail: Codable, Equatable, Sendable {
    var query = ""
    var score = 0.0
    var counted = Counted()
    var nested: Int??
    var shape = Shape.none
    var rows: IdentifiedArrayOf<Row>?
  }

  struct State: Codable, Equatable, Sendable {
    @PresentationState var detail: Detail?
    var maybeDetail: Detail??
    var number: Int? = 0
    var text: String? = "a"
    var level: Level? = .low
    var tagged = Tagged(Detail())
    var taggedNumber = Tagged(1.5)
    var when: Date? = Date(timeIntervalSinceReferenceDate: 0)
    var link: URL? = URL(string: "https://example.com/a")
    var id: UUID? = UUID(uuidString: "00000000-0000-0000-0000-000000000001")
    var scores: [String: Double]? = [:]
    var holder: Holder?
    var counted = Counted()

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.detail == rhs.detail && lhs.maybeDetail == rhs.maybeDetail && lhs.number == rhs.number
    }
  }

  func testAChangeInsideAPresentedChildIsItsOwnPathAndItsSiblingsAreNotEncodedAgain() throws {
    var state = State()
    state.detail = Detail(query: "a")
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)
    Counted.encodings.store(0, ordering: .relaxed)

    state.detail?.query = "ab"
    let result = try encoder.encode(state)

    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed), 0)
    XCTAssertEqual(result.changes.map(\.description), [#"set detail.query "ab""#])
    XCTAssertEqual(result.paths.map(\.description), ["detail.query"])
    XCTAssertEqual(result.value, try expected(state))
    XCTAssertEqual(result.hash, try expected(state).stableHash)

    state.tagged.value.query = "t"
    state.maybeDetail = .some(Detail())
    _ = try encoder.encode(state)
    Counted.encodings.store(0, ordering: .relaxed)
    state.tagged.value.score = 2
    state.maybeDetail??.query = "m"
    let wrapped = try encoder.encode(state)
    XCTAssertEqual(Counted.encodings.load(ordering: .relaxed), 0)
    XCTAssertEqual(
      wrapped.changes.map(\.description), [#"set maybeDetail.query "m""#, "set tagged.score 2.0"])

    state.detail = nil
    XCTAssertEqual(try encoder.encode(state).changes.map(\.description), ["set detail nil"])
  }

  /// A child presented inside a presented child, with optionals of its own.
  struct Note: Codable, Equatable, Sendable {
    var text = ""
    var count: Int?
    var flags: Bool??
  }

  struct Sheet: Codable, Equatable, Sendable {
    var title = ""
    @PresentationState var note: Note?
    var rows: IdentifiedArrayOf<Row> = []
  }

  struct Screen: Codable, Equatable, Sendable {
    @PresentationState var sheet: Sheet?
    var count = 0
  }

  func testPresentationsAndOptionalsAreReadWithoutTheirEncodersStepByStepAsTheWholeDiff() throws {
    // `@PresentationState` and `Optional` are read as what they wrap from the first question
    // (`WalkedWrapper`); a hand-written wrapper is walked once, then read through its encoder.
    let types = WalkedTypes()
    XCTAssertEqual(types.kind(of: PresentationState<Note>(wrappedValue: nil)), .wrapper)
    XCTAssertEqual(types.kind(of: Note?.none), .wrapper)
    XCTAssertEqual(types.kind(of: Tagged(Note())), .walked)
    XCTAssertNotNil(types.wrapperType(of: PresentationState<Sheet>.self))
    XCTAssertNil(types.wrapperType(of: Tagged<Note>.self))

    var state = Screen()
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    let steps: [(String, (inout Screen) -> Void, [String])] = [
      ("present", { $0.sheet = Sheet(title: "s") },
       [#"set sheet (title: "s", note: nil, rows: [])"#]),
      ("title", { $0.sheet?.title = "t" }, [#"set sheet.title "t""#]),
      ("present inside", { $0.sheet?.note = Note(text: "a") },
       [#"set sheet.note (text: "a", count: nil, flags: nil)"#]),
      ("inner text", { $0.sheet?.note?.text = "ab" }, [#"set sheet.note.text "ab""#]),
      ("inner optional", { $0.sheet?.note?.count = 3 }, ["set sheet.note.count 3"]),
      ("inner optional again", { $0.sheet?.note?.count = 4 }, ["set sheet.note.count 4"]),
      ("marker", { $0.sheet?.note?.flags = .some(nil) },
       ["set sheet.note.flags .Optional.some(nil)"]),
      ("marked value", { $0.sheet?.note?.flags = true }, ["set sheet.note.flags true"]),
      ("two levels", { $0.sheet?.title = "u"; $0.sheet?.note?.count = nil; $0.count = 1 },
       [#"set sheet.title "u""#, "set sheet.note.count nil", "set count 1"]),
      ("dismiss inside", { $0.sheet?.note = nil }, ["set sheet.note nil"]),
      ("present again", { $0.sheet?.note = Note(text: "z", count: 1) },
       [#"set sheet.note (text: "z", count: 1, flags: nil)"#]),
      ("dismiss", { $0.sheet = nil }, ["set sheet nil"]),
      ("present with a note", { $0.sheet = Sheet(note: Note()) },
       [#"set sheet (title: "", note: (text: "", count: nil, flags: nil), rows: [])"#]),
      ("inner text last", { $0.sheet?.note?.text = "q" }, [#"set sheet.note.text "q""#]),
    ]
    for (step, (name, change, expectedChanges)) in steps.enumerated() {
      change(&state)
      let result = try encoder.encode(state)
      let whole = try TraceValueEncoder().encodeReplacingClassInstances(state).value
      XCTAssertEqual(result.changes.map(\.description), expectedChanges, name)
      let diff = try wholeDiff(from: previous, to: whole)
      XCTAssertEqual(result.changes, diff.changes, name)
      XCTAssertEqual(result.paths, diff.paths, name)
      assertEncodesAsWhole(result, whole, step: step)
      previous = whole
    }
  }

  func testNestedOptionalsKeepTheMarkerTheEncoderWrites() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    _ = try encoder.encode(state)

    state.maybeDetail = .some(nil)
    let some = try encoder.encode(state)
    XCTAssertEqual(some.value, try expected(state))
    XCTAssertEqual(some.changes.map(\.description), ["set maybeDetail .Optional.some(nil)"])

    state.maybeDetail = .some(Detail(nested: .some(nil)))
    let inner = try encoder.encode(state)
    XCTAssertEqual(inner.value, try expected(state))
    XCTAssertEqual(inner.changes, try wholeDiff(from: some.value, to: inner.value).changes)
  }

  /// `nil` is read as its `null` leaf, never sent to the whole encoding as a marked value is:
  /// a dismissed presentation or an empty optional is a field of its own, compared with the
  /// previous one's; `.some(nil)` of a nested optional is still left to the whole encoding.
  func testNilIsItsLeafAndOnlyAMarkedValueIsLeftToTheWholeEncoding() throws {
    let types = WalkedTypes()
    func encoding(_ field: FieldCache?) -> TraceValue? {
      guard let field, case .tree(let tree) = field.encoding else { return nil }
      return tree
    }
    let none = try Int?.wrappedField(
      nil, key: "number", old: nil, wrappedBox: nil, at: [], types: types)
    XCTAssertEqual(encoding(none), .null)
    XCTAssertEqual(none?.path, [.key("number")])
    XCTAssertNil(none?.edits)
    let dismissed = try Detail?.wrappedField(
      nil, key: "detail", old: nil, wrappedBox: nil, at: [.key("sheet")], types: types)
    XCTAssertEqual(encoding(dismissed), .null)
    XCTAssertEqual(dismissed?.path, [.key("sheet"), .key("detail")])

    let value = try Int?.wrappedField(
      3, key: "number", old: none, wrappedBox: nil, at: [], types: types)
    XCTAssertEqual(encoding(value), .int(3))
    XCTAssertEqual(value?.edits?.changes.map(\.description), ["set number 3"])
    let again = try Int?.wrappedField(
      nil, key: "number", old: value, wrappedBox: nil, at: [], types: types)
    XCTAssertEqual(encoding(again), .null)
    XCTAssertEqual(again?.edits?.changes.map(\.description), ["set number nil"])

    XCTAssertNil(
      try Int??.wrappedField(
        .some(nil), key: "nested", old: nil, wrappedBox: nil, at: [], types: types))
    XCTAssertEqual(
      encoding(
        try Int??.wrappedField(
          .some(.some(2)), key: "nested", old: nil, wrappedBox: nil, at: [], types: types)),
      .int(2))
  }

  func testEveryStepOfARandomWalkIsExactlyTheWholeEncodersValueDiffHashAndJSON() throws {
    var state = State()
    var encoder = IncrementalEncoder()
    var previous = try encoder.encode(state).value
    var random = SplitMix64(seed: 41)
    for step in 1...1_500 {
      let pick = mutate(&state, &random)
      let result = try encoder.encode(state)
      let whole = try expected(state)
      assertEncodesAsWhole(result, whole, step: step)
      let diff = try wholeDiff(from: previous, to: whole)
      XCTAssertEqual(result.changes, diff.changes, "step \(step)")
      XCTAssertEqual(result.paths, diff.paths, "step \(step)")
      // Only what was encoded again: a new holder.
      XCTAssertEqual(
        result.replaced.map(\.description), pick == 20 && state.holder != nil ? ["holder"] : [],
        "step \(step)")
      previous = whole
    }
  }

  private func expected(_ state: State) throws -> TraceValue {
    try TraceValueEncoder().encodeReplacingClassInstances(state).value
  }

  private func wholeDiff(from old: TraceValue, to new: TraceValue) throws
    -> (changes: [TraceChange], paths: [TracePath])
  {
    TraceDiff.changesAndPaths(from: old, to: new)
  }

  private static let doubles: [Double] = [
    0, -0.0, 0.1, -1.5e300, .infinity, -.infinity, .leastNonzeroMagnitude,
    .greatestFiniteMagnitude, .leastNormalMagnitude / 4, .pi,
  ]
  private static let strings = [
    "", "a", "quote \" back \\ slash", "line\nbreak\t", "é ü 中", "\u{0}",
  ]

  /// `nil`, `.some(nil)` or `.some(.some(value))`, by `number`.
  private static func doubleOptional<Value>(_ number: Int, some value: Value) -> Value?? {
    switch number % 3 {
    case 0: return nil
    case 1: return .some(nil)
    default: return .some(value)
    }
  }

  /// Changes one part of `state`; returns which.
  @discardableResult
  private func mutate(_ state: inout State, _ random: inout SplitMix64) -> Int {
    let pick = Int(random.next() % 22)
    let number = Int(random.next() % 40)
    let double = Self.doubles[number % Self.doubles.count]
    let string = Self.strings[number % Self.strings.count]
    switch pick {
    case 0: state.detail = number % 4 == 0 ? nil : Detail(query: string)
    case 1: state.detail?.query = string
    case 2: state.detail?.score = double
    case 3: state.detail?.counted.value = number
    case 4:
      state.detail?.nested = Self.doubleOptional(number, some: number)
    case 5:
      state.detail?.shape = number % 3 == 0
        ? .none : number % 3 == 1 ? .circle(radius: double) : .labelled(string, number)
    case 6:
      state.detail?.rows = number % 5 == 0
        ? nil
        : IdentifiedArray(uniqueElements: (0..<(number % 7)).map { Row(id: $0, title: "r") })
    case 7: state.detail?.rows?[id: number % 7]?.title = string
    case 8:
      state.maybeDetail = Self.doubleOptional(number, some: Detail())
    case 9: state.maybeDetail??.query = string
    case 10: state.number = number % 4 == 0 ? nil : number
    case 11: state.text = number % 4 == 0 ? nil : string
    case 12: state.level = number % 3 == 0 ? nil : number % 3 == 1 ? .low : .high
    case 13: state.tagged.value.score = double
    case 14: state.tagged.value.nested = number % 2 == 0 ? .some(nil) : number
    case 15: state.taggedNumber = Tagged(double)
    case 16:
      state.when = number % 4 == 0 ? nil : Date(timeIntervalSinceReferenceDate: double)
    case 17: state.link = number % 4 == 0 ? nil : URL(string: "https://example.com/\(number)")
    case 18:
      state.id =
        number % 4 == 0
        ? nil : UUID(uuidString: "00000000-0000-0000-0000-0000000000\(number + 10)")
    case 19:
      state.scores =
        number % 5 == 0 ? nil : (state.scores ?? [:]).merging(["k\(number % 4)": double]) { $1 }
    case 20: state.holder = number % 2 == 0 ? nil : Holder(note: "n\(number)")
    default: state.counted.value = number
    }
    return pick
  }
}
