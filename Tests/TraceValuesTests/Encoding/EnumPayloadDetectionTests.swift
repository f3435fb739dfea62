import TraceValues
import XCTest

/// A nested keyed container is a synthesized enum case's payload when the outer key type is
/// `CodingKeys` and the nested one is the case name capitalized + `CodingKeys`: ASCII names are
/// compared as bytes, others as `String`s. Exact trees for both, and for look-alikes that are
/// not payloads.
final class EnumPayloadDetectionTests: XCTestCase {
  enum Action: Encodable {
    case toggle(id: Int)
    case Upper(flag: Bool)
    case café(count: Int)
    case ñandú(_ name: String)
  }

  /// Hand-written with a synthesized case's key types: under the key its nested type is named
  /// after, the nested container is a payload; under another key it is not.
  struct LookAlike: Encodable {
    enum CodingKeys: String, CodingKey { case toggle, other }
    enum ToggleCodingKeys: String, CodingKey { case id }

    var key: CodingKeys

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var nested = container.nestedContainer(keyedBy: ToggleCodingKeys.self, forKey: key)
      try nested.encode(7, forKey: .id)
    }
  }

  /// Hand-written with an outer key type that is not named `CodingKeys`.
  struct OtherOuter: Encodable {
    enum Keys: String, CodingKey { case toggle }
    enum ToggleCodingKeys: String, CodingKey { case id }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: ToggleCodingKeys.self, forKey: .toggle)
      try nested.encode(7, forKey: .id)
    }
  }

  private let encoder = TraceValueEncoder()

  func testASCIICasesAreEnumCases() throws {
    XCTAssertEqual(
      try encoder.encode(Action.toggle(id: 3)), .enumCase("toggle", [TraceField("id", .int(3))]))
    XCTAssertEqual(
      try encoder.encode(Action.Upper(flag: true)),
      .enumCase("Upper", [TraceField("flag", .bool(true))]))
    XCTAssertEqual(
      try encoder.encode(Action.toggle(id: 3)).jsonString, #"{"$case":"toggle","id":3}"#)
  }

  func testNonASCIINamesTakeTheStringComparison() throws {
    XCTAssertEqual(
      try encoder.encode(Action.café(count: 2)), .enumCase("café", [TraceField("count", .int(2))]))
    // A non-ASCII first letter: the synthesized key type's name does not start with the
    // letter `Character.uppercased()` gives, so the payload stays an object (as before the
    // ASCII comparison: this name takes the `String` path).
    XCTAssertEqual(
      try encoder.encode(Action.ñandú("x")),
      .object([TraceField("ñandú", .object([TraceField("_0", .string("x"))]))]))
  }

  /// The answer is kept per thread by the two key types and the case's name: the same key
  /// types under another key stay apart, in either order and again and again.
  func testKeptAnswersTellTheSameKeyTypesUnderAnotherKeyApart() throws {
    let payload = TraceValue.enumCase("toggle", [TraceField("id", .int(7))])
    let object = TraceValue.object([TraceField("other", .object([TraceField("id", .int(7))]))])
    for round in 0..<3 {
      let keys: [LookAlike.CodingKeys] = round == 1 ? [.other, .toggle] : [.toggle, .other]
      for key in keys {
        XCTAssertEqual(
          try encoder.encode(LookAlike(key: key)), key == .toggle ? payload : object,
          "round \(round), \(key)")
      }
      XCTAssertEqual(
        try encoder.encode([Action.toggle(id: round), Action.Upper(flag: true)]),
        .array([
          .enumCase("toggle", [TraceField("id", .int(Int64(round)))]),
          .enumCase("Upper", [TraceField("flag", .bool(true))]),
        ]))
      XCTAssertEqual(
        try encoder.encode(OtherOuter()),
        .object([TraceField("toggle", .object([TraceField("id", .int(7))]))]))
    }
  }

  func testLookAlikesAreObjects() throws {
    XCTAssertEqual(
      try encoder.encode(LookAlike(key: .toggle)),
      .enumCase("toggle", [TraceField("id", .int(7))]))
    XCTAssertEqual(
      try encoder.encode(LookAlike(key: .other)),
      .object([TraceField("other", .object([TraceField("id", .int(7))]))]))
    XCTAssertEqual(
      try encoder.encode(OtherOuter()),
      .object([TraceField("toggle", .object([TraceField("id", .int(7))]))]))
  }
}
