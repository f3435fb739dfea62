/// Turns a `TraceValue` tree back into a typed value: the inverse of `TraceValueEncoder`,
/// which typed replay needs.
///
/// ```swift
/// struct Todo: Codable, Equatable { var id: Int; var title: String }
/// let tree = try TraceValue(json: #"{"id":3,"title":"Buy milk"}"#)
/// print(try TraceValueDecoder().decode(Todo.self, from: tree))
/// // Todo(id: 3, title: "Buy milk")
/// ```
///
/// Besides plain `Decodable`: `.enumCase` values decode into synthesized enums, `.bytes` into
/// `Data`, strings into `URL`, `Optional.some` markers into nested optionals (see
/// `TraceValueEncoder`); a key holding `null` decodes as `.some(nil)` when the field's type is
/// itself optional (`Int??`), and as `nil` otherwise. A `.reflected` value cannot be decoded.
public struct TraceValueDecoder: Sendable {
  public init() {}

  /// Decodes a `T` from `value`.
  ///
  /// - Throws: `DecodingError` with the coding path of the first value that does not fit. A
  ///   recorded enum case the type does not have is a `typeMismatch` whose underlying error
  ///   is a `TraceUnknownCase` naming the case and the type's cases.
  public func decode<T: Decodable>(_ type: T.Type, from value: TraceValue) throws -> T {
    let root = TraceDecoding(value: value, parent: nil, key: nil)
    do {
      return try root.decodeValue(type, from: value, key: nil)
    } catch DecodingError.typeMismatch(let type, let context) {
      guard let unknown = root.firstUnknownCase,
        unknown.codingPath == context.codingPath.map(\.stringValue)
      else { throw DecodingError.typeMismatch(type, context) }
      throw DecodingError.typeMismatch(
        type,
        DecodingError.Context(
          codingPath: context.codingPath,
          debugDescription: "The recorded case \"\(unknown.name)\" is not a case of \(type)",
          underlyingError: unknown))
    }
  }
}
