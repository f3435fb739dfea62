/// The underlying error of the `DecodingError.typeMismatch` that `TraceValueDecoder` throws
/// when a recorded enum case is not a case of the type: its name, and the type's cases when
/// they can be read (the names they code as).
///
/// ```swift
/// do { _ = try TraceValueDecoder().decode(Action.self, from: .enumCase("decrement", [])) }
/// catch DecodingError.typeMismatch(_, let context) {
///   let unknown = context.underlyingError as? TraceUnknownCase
///   print(unknown?.name, unknown?.cases)  // decrement ["increment", "subtract"]
/// }
/// ```
public struct TraceUnknownCase: Error, Sendable, Hashable {
  /// The coding path of the enum value, as key strings.
  public var codingPath: [String]
  /// The recorded case.
  public var name: String
  /// The type's cases; nil when they cannot be read.
  public var cases: [String]?
  /// The enum type, when its coding keys are the synthesized `CodingKeys` nested in it.
  public var typeName: String?

  public init(codingPath: [String], name: String, cases: [String]?, typeName: String?) {
    self.codingPath = codingPath
    self.name = name
    self.cases = cases
    self.typeName = typeName
  }
}
