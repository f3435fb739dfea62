#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `Decoder` behind `TraceValueDecoder`: one instance per coding level, holding the value
/// of that level; it is also that level's single-value container.
final class TraceDecoding: Decoder, SingleValueDecodingContainer {
  let value: TraceValue
  let parent: TraceDecoding?
  let key: CodingKey?
  /// The first recorded enum case the type did not know, kept by the root for the error.
  private var unknownCase: TraceUnknownCase?

  init(value: TraceValue, parent: TraceDecoding?, key: CodingKey?) {
    self.value = value
    self.parent = parent
    self.key = key
  }

  /// The first enum case found in the value that the type being decoded does not have.
  var firstUnknownCase: TraceUnknownCase? {
    var level = self
    while let parent = level.parent { level = parent }
    return level.unknownCase
  }

  private func noteUnknownCase(_ unknown: TraceUnknownCase) {
    var level = self
    while let parent = level.parent { level = parent }
    if level.unknownCase == nil { level.unknownCase = unknown }
  }

  var codingPath: [CodingKey] {
    var path: [CodingKey] = []
    var level: TraceDecoding? = self
    while let current = level {
      if let key = current.key { path.append(key) }
      level = current.parent
    }
    return path.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func path(_ key: CodingKey?) -> [CodingKey] {
    guard let key else { return codingPath }
    return codingPath + [key]
  }

  func mismatch(_ type: Any.Type, _ value: TraceValue, key: CodingKey?) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: path(key),
      debugDescription: "Expected \(type), found \(value.kindDescription)")
    if case .null = value { return DecodingError.valueNotFound(type, context) }
    return DecodingError.typeMismatch(type, context)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .object(let fields):
      return KeyedDecodingContainer(TraceKeyedDecoding<Key>(decoding: self, fields: fields))
    case .enumCase(let name, let fields):
      // Synthesized enum decoding reads one key, the case, holding the associated values.
      if Key(stringValue: name) == nil {
        // Kept so that the type mismatch the enum's `init(from:)` throws can name the case.
        noteUnknownCase(
          TraceUnknownCase(
            codingPath: codingPath.map(\.stringValue), name: name,
            cases: EnumCaseNames.codingNames(of: Key.self),
            typeName: EnumCaseNames.enumTypeName(of: Key.self)))
      }
      let caseField = [TraceField(name, .object(fields))]
      return KeyedDecodingContainer(TraceKeyedDecoding<Key>(decoding: self, fields: caseField))
    default:
      throw mismatch([String: Any].self, value, key: nil)
    }
  }

  func unkeyedContainer() throws -> UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch([Any].self, value, key: nil)
    }
    return TraceUnkeyedDecoding(decoding: self, elements: elements)
  }

  func singleValueContainer() throws -> SingleValueDecodingContainer { self }

  // MARK: Values

  /// Decodes a `T` from `value`, found at `key` below this level (`nil`: this level itself).
  func decodeValue<T: Decodable>(
    _ type: T.Type, from value: TraceValue, key: CodingKey?
  ) throws -> T {
    if T.self == String.self {
      guard case .string(let string) = value else { throw mismatch(T.self, value, key: key) }
      return string as! T
    }
    if T.self == Int.self { return try integer(Int.self, value, key: key) as! T }
    if T.self == Bool.self {
      guard case .bool(let bool) = value else { throw mismatch(T.self, value, key: key) }
      return bool as! T
    }
    if T.self == Double.self { return try double(value, key: key) as! T }
    if T.self == Date.self {
      // ISO 8601 text (format version 2), or seconds since 2001 (version 1, and dates that
      // have no such text).
      if case .string(let text) = value {
        guard let seconds = DateText.seconds(parsing: text) else {
          throw DecodingError.dataCorrupted(
            DecodingError.Context(
              codingPath: path(key),
              debugDescription: "\(TraceValue.string(text).jsonString) is not an ISO 8601 date "
                + "(YYYY-MM-DDTHH:MM:SS[.fraction]Z)"))
        }
        return Date(timeIntervalSinceReferenceDate: seconds) as! T
      }
      return Date(timeIntervalSinceReferenceDate: try double(value, key: key)) as! T
    }
    if T.self == UUID.self {
      guard case .string(let string) = value else { throw mismatch(T.self, value, key: key) }
      guard let uuid = UUID(uuidString: string) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path(key), debugDescription: "Invalid UUID string \"\(string)\""))
      }
      return uuid as! T
    }
    if T.self == Data.self {
      guard case .bytes(let bytes) = value else { throw mismatch(T.self, value, key: key) }
      return Data(bytes) as! T
    }
    if T.self == URL.self, case .string(let string) = value {
      guard let url = URL(string: string) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path(key), debugDescription: "Invalid URL string \"\(string)\""))
      }
      return url as! T
    }
    if case .reflected(let typeName, _) = value {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path(key),
          debugDescription: "A reflected \(typeName) is read-only and cannot be decoded"))
    }
    if TypeKindCache.kind(of: T.self) == .optional,
      let optional = T.self as? any OptionalCoding.Type
    {
      if case .null = value { return optional.noneValue as! T }
      if let inner = OptionalSomeMarker.unwrap(value) {
        return try decodeSome(optional, inner, key: key) as! T
      }
    }
    let child = TraceDecoding(value: value, parent: self, key: key)
    return try T(from: child)
  }

  private func decodeSome<O: OptionalCoding>(
    _ type: O.Type, _ inner: TraceValue, key: CodingKey?
  ) throws -> O {
    guard let wrappedType = O.wrappedType as? any Decodable.Type else {
      throw mismatch(O.self, inner, key: key)
    }
    let wrapped = try decodeValue(wrappedType, from: inner, key: key)
    guard let result = O.makeSome(wrapped) else { throw mismatch(O.self, inner, key: key) }
    return result
  }

  func integer<I: FixedWidthInteger>(
    _ type: I.Type, _ value: TraceValue, key: CodingKey?
  ) throws -> I {
    let result: I?
    switch value {
    case .int(let number): result = I(exactly: number)
    case .uint(let number): result = I(exactly: number)
    default: throw mismatch(I.self, value, key: key)
    }
    guard let result else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path(key), debugDescription: "Number \(value) does not fit in \(I.self)"))
    }
    return result
  }

  func double(_ value: TraceValue, key: CodingKey?) throws -> Double {
    switch value {
    case .double(let number): return number
    case .int(let number): return Double(number)
    case .uint(let number): return Double(number)
    default: throw mismatch(Double.self, value, key: key)
    }
  }

  // MARK: SingleValueDecodingContainer

  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type, from: value, key: nil) }
  func decode(_ type: String.Type) throws -> String {
    try decodeValue(type, from: value, key: nil)
  }
  func decode(_ type: Double.Type) throws -> Double { try double(value, key: nil) }
  func decode(_ type: Float.Type) throws -> Float { Float(try double(value, key: nil)) }
  func decode(_ type: Int.Type) throws -> Int { try integer(type, value, key: nil) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, value, key: nil) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, value, key: nil) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, value, key: nil) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, value, key: nil) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type, value, key: nil) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, value, key: nil) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, value, key: nil) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, value, key: nil) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, value, key: nil) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    // The same level: a wrapper type decoding its single stored value.
    try decodeValue(type, from: value, key: nil)
  }
}

struct TraceKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoding: TraceDecoding
  let fields: [TraceField]
  /// Built only for large objects (dictionaries), where a linear search per key would make
  /// decoding quadratic.
  let index: [String: Int]?

  init(decoding: TraceDecoding, fields: [TraceField]) {
    self.decoding = decoding
    self.fields = fields
    if fields.count > 16 {
      var index = [String: Int](minimumCapacity: fields.count)
      for (position, field) in fields.enumerated() where index[field.key] == nil {
        index[field.key] = position
      }
      self.index = index
    } else {
      self.index = nil
    }
  }

  var codingPath: [CodingKey] { decoding.codingPath }

  var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.key) } }

  private func lookup(_ key: CodingKey) -> TraceValue? {
    let name = key.stringValue
    if let index { return index[name].map { fields[$0].value } }
    // Comparing lengths first skips most unequal keys without a full string comparison.
    let length = name.utf8.count
    for field in fields where field.key.utf8.count == length && field.key == name {
      return field.value
    }
    return nil
  }

  private func require(_ key: CodingKey) throws -> TraceValue {
    guard let value = lookup(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value for key \"\(key.stringValue)\""))
    }
    return value
  }

  func contains(_ key: Key) -> Bool { lookup(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try require(key) { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoding.decodeValue(type, from: require(key), key: key)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoding.decodeValue(type, from: require(key), key: key)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decoding.double(require(key), key: key)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    Float(try decoding.double(require(key), key: key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try decoding.integer(type, require(key), key: key)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoding.decodeValue(type, from: require(key), key: key)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    // `nil` is `null` (or, written by format version 1, no key at all). A nested optional's
    // `.some(nil)` is the `Optional.some` marker: one level of it is this call's own.
    guard let value = lookup(key) else { return nil }
    if case .null = value { return nil }
    if T.self is any OptionalCoding.Type, let inner = OptionalSomeMarker.unwrap(value) {
      return try decoding.decodeValue(type, from: inner, key: key)
    }
    return try decoding.decodeValue(type, from: value, key: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let child = TraceDecoding(value: try require(key), parent: decoding, key: key)
    return try child.container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
    let child = TraceDecoding(value: try require(key), parent: decoding, key: key)
    return try child.unkeyedContainer()
  }

  func superDecoder() throws -> Decoder {
    let key = TraceCodingKey.superKey
    return TraceDecoding(value: lookup(key) ?? .null, parent: decoding, key: key)
  }

  func superDecoder(forKey key: Key) throws -> Decoder {
    TraceDecoding(value: lookup(key) ?? .null, parent: decoding, key: key)
  }
}

struct TraceUnkeyedDecoding: UnkeyedDecodingContainer {
  let decoding: TraceDecoding
  let elements: [TraceValue]
  var currentIndex = 0

  init(decoding: TraceDecoding, elements: [TraceValue]) {
    self.decoding = decoding
    self.elements = elements
  }

  var codingPath: [CodingKey] { decoding.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next<T>(_ type: T.Type) throws -> (TraceValue, CodingKey) {
    let key = TraceCodingKey(index: currentIndex)
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end"))
    }
    defer { currentIndex += 1 }
    return (elements[currentIndex], key)
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any?.self,
        DecodingError.Context(
          codingPath: codingPath + [TraceCodingKey(index: currentIndex)],
          debugDescription: "Unkeyed container is at end"))
    }
    if case .null = elements[currentIndex] {
      currentIndex += 1
      return true
    }
    return false
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, key) = try next(type)
    return try decoding.decodeValue(type, from: value, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let (value, key) = try next(KeyedDecodingContainer<NestedKey>.self)
    return try TraceDecoding(value: value, parent: decoding, key: key).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
    let (value, key) = try next(UnkeyedDecodingContainer.self)
    return try TraceDecoding(value: value, parent: decoding, key: key).unkeyedContainer()
  }

  mutating func superDecoder() throws -> Decoder {
    let (value, key) = try next(Decoder.self)
    return TraceDecoding(value: value, parent: decoding, key: key)
  }
}
