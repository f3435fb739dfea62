import Locking

/// A coding key made from a string or an index: dictionary keys, array positions, `super`.
/// An array position's text ("Index 3") is only built when someone asks for it: arrays create
/// one key per element, and most are never looked at.
struct TraceCodingKey: CodingKey, Sendable {
  private let name: String?
  let intValue: Int?

  init(stringValue: String) {
    self.name = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.name = String(intValue)
    self.intValue = intValue
  }

  init(index: Int) {
    self.name = nil
    self.intValue = index
  }

  var stringValue: String { name ?? "Index \(intValue ?? 0)" }

  static let superKey = TraceCodingKey(stringValue: "super")
}

/// Lets the coders see through `Optional` without knowing its `Wrapped` type statically.
protocol OptionalCoding {
  var isNone: Bool { get }
  /// Whether the value of this type at `address` is `nil`: the hasher's test
  /// (`HashingEncoding.encodeValue`), through the type alone, as a cast of the value to
  /// `any OptionalCoding` would copy it into an existential (on the heap when larger than its
  /// buffer); the type's conformance is looked up once a place (`HashMemo.optionalCoding`).
  static func isNone(at address: UnsafeRawPointer) -> Bool
  static var noneValue: Self { get }
  static var wrappedType: Any.Type { get }
  static func makeSome(_ wrapped: Any) -> Self?
}

extension Optional: OptionalCoding {
  var isNone: Bool { self == nil }
  static func isNone(at address: UnsafeRawPointer) -> Bool {
    address.assumingMemoryBound(to: Self.self).pointee == nil
  }
  static var noneValue: Self { nil }
  static var wrappedType: Any.Type { Wrapped.self }
  static func makeSome(_ wrapped: Any) -> Self? {
    guard let wrapped = wrapped as? Wrapped else { return nil }
    return .some(wrapped)
  }
}

/// `Optional.some(x)` where `x` itself encodes as `null` (`Int??.some(nil)`) is written as this
/// enum case so it stays apart from `nil`: `.enumCase("Optional.some", [_0: null])`.
enum OptionalSomeMarker {
  static let caseName = "Optional.some"

  static func wrap(_ inner: TraceValue) -> TraceValue {
    .enumCase(caseName, [TraceField("_0", inner)])
  }

  static func unwrap(_ value: TraceValue) -> TraceValue? {
    guard case .enumCase(let name, let fields) = value, name == caseName, fields.count == 1,
      fields[0].key == "_0"
    else { return nil }
    return fields[0].value
  }

  /// Whether an encoded wrapped value would be mistaken for a smaller optional.
  static func needsMarker(_ value: TraceValue) -> Bool {
    if case .null = value { return true }
    return unwrap(value) != nil
  }
}

/// Decides, once per coding-key type, whether a nested keyed container is the payload of a
/// synthesized enum case. Synthesized `Codable` for `enum Action { case picked(Date) }` writes
/// `container(keyedBy: CodingKeys.self).nestedContainer(keyedBy: PickedCodingKeys.self,
/// forKey: .picked)`: the outer key type is named `CodingKeys` and the nested one is the case
/// name, capitalized, followed by `CodingKeys`. Type names are cached by `ObjectIdentifier`
/// because `String(describing:)` on a metatype costs far more than a locked dictionary lookup.
enum EnumCaseDetector {
  private static let names = Lock<[ObjectIdentifier: String]>([:])

  static func typeName(_ type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let name = names.withLock({ $0[id] }) { return name }
    let name = String(describing: type)
    names.withLock { $0[id] = name }
    return name
  }

  static func isSynthesizedEnumPayload(
    outer: Any.Type, nested: Any.Type, caseName: String
  ) -> Bool {
    guard typeName(outer) == "CodingKeys" else { return false }
    let nestedName = typeName(nested)
    // ASCII names (nearly all) compared as bytes: the `String` and `Character` steps below
    // cost about 2,900 instructions a recorded action with a payload.
    if let ascii = asciiPayloadMatch(nestedName: nestedName, caseName: caseName) { return ascii }
    let suffix = "CodingKeys"
    guard nestedName.utf8.count == caseName.utf8.count + suffix.utf8.count,
      nestedName.hasSuffix(suffix), let first = caseName.first
    else { return false }
    let stem = nestedName.utf8.dropLast(suffix.utf8.count)
    if let firstByte = caseName.utf8.first, firstByte < 0x80 {
      // ASCII first letter: compare bytes without building strings.
      let upper = firstByte >= UInt8(ascii: "a") && firstByte <= UInt8(ascii: "z")
        ? firstByte - 32 : firstByte
      return stem.first == upper && stem.dropFirst().elementsEqual(caseName.utf8.dropFirst())
    }
    return String(Substring(stem)) == first.uppercased() + caseName.dropFirst()
  }

  /// `isSynthesizedEnumPayload`'s answer when both names are ASCII and stored contiguously,
  /// else nil. For ASCII text, `hasSuffix` and the first `Character` are the bytes: an ASCII
  /// byte is one character (only CR LF pairs, which cannot precede `C`, join).
  private static func asciiPayloadMatch(nestedName: String, caseName: String) -> Bool? {
    let suffix: StaticString = "CodingKeys"
    let suffixCount = suffix.utf8CodeUnitCount
    let matched: Bool?? = nestedName.utf8.withContiguousStorageIfAvailable { nestedBytes in
      caseName.utf8.withContiguousStorageIfAvailable { caseBytes -> Bool? in
        guard caseBytes.allSatisfy({ $0 < 0x80 }), nestedBytes.allSatisfy({ $0 < 0x80 }) else {
          return nil
        }
        guard let first = caseBytes.first, nestedBytes.count == caseBytes.count + suffixCount
        else { return false }
        let stemCount = caseBytes.count
        for index in 0..<suffixCount
        where nestedBytes[stemCount + index] != suffix.utf8Start[index] {
          return false
        }
        let upper = first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") ? first - 32 : first
        guard nestedBytes[0] == upper else { return false }
        for index in 1..<stemCount where nestedBytes[index] != caseBytes[index] { return false }
        return true
      } ?? nil
    }
    return matched ?? nil
  }
}

/// What the encoder must do with a type before calling its `encode(to:)`, decided once per
/// type: three failed protocol casts per value cost more than a locked dictionary lookup.
enum TypeKindCache {
  enum Kind {
    case plain, optional, set, dictionary
    /// A class, or a value whose type's own stored properties (an enum value's payload)
    /// hold class instances (see `ReferenceProbe`): such a value can change in place,
    /// and a recorder may not read it off the main actor (see
    /// `TraceValueEncoder.encodeReplacingClassInstances`).
    case reference
  }

  /// How the values of a type are encoded, decided once per type (`decision(of:)`).
  enum Decision {
    /// Every value's kind.
    case kind(Kind)
    /// An enum whose cases hold different things: the kind of each case's values, by the
    /// value's tag (`TypeMetadata.enumTag(of:)`); nil where the value decides.
    case eachCase([Kind?])
    /// Each value decides by the types its existentials hold now, at these byte offsets
    /// (`ReferenceProbe.existentialsHoldReferences(_:at:)`), or through its mirror where one
    /// holds a collection of existentials.
    case existentials([Int])
    /// Each value decides by what the value it carries holds
    /// (`ReferenceProbe.reflectedValueHoldsReferences(_:as:)`).
    case reflectedValue(any ReflectsAsItsValue.Type)
    /// Each value decides through its mirror (`valueKind(of:)`).
    case eachValue

    /// The kind of `value`, a value of the type decided.
    @inline(__always)
    func kind<T>(of value: T) -> Kind {
      switch self {
      case .kind(let kind):
        return kind
      case .eachCase(let kinds):
        let tag = TypeMetadata.enumTag(of: value)
        guard kinds.indices.contains(tag), let kind = kinds[tag] else {
          return TypeKindCache.valueKind(of: value)
        }
        return kind
      case .existentials(let offsets):
        guard let holds = ReferenceProbe.existentialsHoldReferences(value, at: offsets) else {
          return TypeKindCache.valueKind(of: value)
        }
        return holds ? .reference : .plain
      case .reflectedValue(let carrier):
        return ReferenceProbe.reflectedValueHoldsReferences(value, as: carrier)
          ? .reference : .plain
      case .eachValue:
        return TypeKindCache.valueKind(of: value)
      }
    }
  }

  private static let kinds = Lock<[ObjectIdentifier: Kind]>([:])
  /// The decisions the encoder met, made from each type.
  private static let decisions = Lock<[ObjectIdentifier: Decision]>([:])

  static func kind(of type: Any.Type) -> Kind {
    let id = ObjectIdentifier(type)
    if let kind = kinds.withLock({ $0[id] }) { return kind }
    let kind = structuralKind(of: type)
    kinds.withLock { $0[id] = kind }
    return kind
  }

  /// The kind of a value being encoded: as `kind(of:)`, except that a plain type is
  /// `.reference` when `ReferenceProbe` finds class instances in it. `value` is looked at
  /// only for a type whose values decide: an enum's by their case, others by the types their
  /// existentials or the value they carry hold, or through a mirror (see `decision(of:)`).
  @inline(__always)
  static func encodingKind<T>(of type: T.Type, value: T) -> Kind {
    decision(of: type).kind(of: value)
  }

  /// The kind of every value of `type`, or nil when its values decide.
  static func encodingKind<T>(of type: T.Type) -> Kind? {
    guard case .kind(let kind) = decision(of: type) else { return nil }
    return kind
  }

  /// How the values of `type` are encoded: one kind for all, or the value's own for an enum
  /// whose cases hold different things (by its case), a type with an existential at one of
  /// its positions (by what it holds) or one that reflects itself (as the value it carries,
  /// or through its mirror; see `ReferenceProbe.holding(_:)` and `valueProbe(_:)`).
  static func decision<T>(of type: T.Type) -> Decision {
    let id = ObjectIdentifier(type)
    if let decision = decisions.withLock({ $0[id] }) { return decision }
    var decision = Decision.kind(structuralKind(of: type))
    if case .kind(.plain) = decision {
      switch ReferenceProbe.holding(type) {
      case .nothing: break
      case .references: decision = .kind(.reference)
      case .eachValue:
        switch ReferenceProbe.valueProbe(type) {
        case .existentials(let offsets): decision = .existentials(offsets)
        case .reflectedValue(let carrier): decision = .reflectedValue(carrier)
        case .mirror: decision = .eachValue
        }
      }
      if let cases = ReferenceProbe.caseHoldings(type) {
        decision = .eachCase(
          cases.map { holding in
            switch holding {
            case .nothing: .plain
            case .references: .reference
            case .eachValue: nil
            }
          })
      }
    }
    decisions.withLock { $0[id] = decision }
    return decision
  }

  /// The kind of `value`, of a type whose values decide: a mirror of it, every time.
  static func valueKind<T>(of value: T) -> Kind {
    ReferenceProbe.holdsReferences(value) ? .reference : .plain
  }

  private static func structuralKind(of type: Any.Type) -> Kind {
    if type is any OptionalCoding.Type { return .optional }
    if type is any SortedSetEncoding.Type { return .set }
    if type is any SortedDictionaryEncoding.Type { return .dictionary }
    return .plain
  }
}
