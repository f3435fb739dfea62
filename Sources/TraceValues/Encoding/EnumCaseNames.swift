@_spi(Reflection) import Swift

/// The names a payload-free enum's cases code as: for the `CodingKeys` that Swift synthesizes
/// for an enum, the names of that enum's cases. Read from the type's metadata (its count of
/// cases), then each case built from its tag and asked for its `stringValue`.
///
/// ```swift
/// enum CodingKeys: CodingKey { case increment, subtract }
/// EnumCaseNames.codingNames(of: CodingKeys.self)  // ["increment", "subtract"]
/// ```
///
/// Nil for anything it cannot read with certainty (a type that is not a payload-free enum of
/// at most 256 cases, or names that do not turn back into the same cases).
enum EnumCaseNames {
  static func codingNames<Key: CodingKey>(of type: Key.Type) -> [String]? {
    let size = MemoryLayout<Key>.size
    guard size <= 1, let count = caseCount(of: type), count > 0, count <= 256,
      count == 1 || size == 1
    else { return nil }
    var names: [String] = []
    for tag in 0..<count {
      let byte = UInt8(tag)
      let key = withUnsafeBytes(of: byte) { $0.baseAddress!.load(as: Key.self) }
      let name = key.stringValue
      // A name must turn back into the same case, or the reading is not to be trusted.
      guard !name.isEmpty, !names.contains(name),
        let again = Key(stringValue: name), again.stringValue == name
      else { return nil }
      names.append(name)
    }
    return names
  }

  /// The enum whose synthesized `CodingKeys` these are (`App.Action` for
  /// `App.Action.CodingKeys`); nil for other keys.
  static func enumTypeName<Key: CodingKey>(of type: Key.Type) -> String? {
    let name = qualifiedTypeName(type)
    guard name.hasSuffix(".CodingKeys") else { return nil }
    return String(name.dropLast(".CodingKeys".count))
  }

  /// The number of cases of a payload-free enum, from its nominal type descriptor.
  private static func caseCount(of type: Any.Type) -> Int? {
    guard TypeMetadata.kind(of: type) == .enum else { return nil }
    let cases = TypeMetadata.enumCaseCounts(of: type)
    guard cases.payload == 0 else { return nil }
    return cases.empty
  }
}
