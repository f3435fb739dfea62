import TraceKit

/// A value as a trace recorded it, written in a test that `inspector testgen` generated: a
/// literal (`"active"`, `12`, `true`, `nil`) or TraceKit's JSON form (`.json(#"{…}"#)`),
/// decoded into whatever Swift type the test needs with that type's `Decodable` conformance
/// — the way typed replay reads a trace.
///
/// ```swift
/// let filter: Todos.Filter = try .recorded("active")   // .active
/// let todo: Todo = try .recorded(.json(#"{"id":"…","title":"Milk","isComplete":false}"#))
/// ```
public struct RecordedValue: Sendable, ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
  let value: Result<TraceValue, RecordedValueError>

  init(_ value: TraceValue) {
    self.value = .success(value)
  }

  public init(nilLiteral: ()) { self.init(.null) }
  public init(booleanLiteral value: Bool) { self.init(.bool(value)) }
  public init(integerLiteral value: Int64) { self.init(.int(value)) }
  public init(floatLiteral value: Double) { self.init(.double(value)) }
  public init(stringLiteral value: String) { self.init(.string(value)) }

  /// A value written in TraceKit's JSON form (objects and arrays as JSON, an enum case as
  /// `{"$case": "name", …}`), as the trace stores it.
  public static func json(_ text: String) -> RecordedValue {
    do {
      return RecordedValue(try TraceValue(json: text))
    } catch {
      let reason = "\(text) is not a recorded value: \(error)"
      return RecordedValue(value: .failure(RecordedValueError(description: reason)))
    }
  }

  private init(value: Result<TraceValue, RecordedValueError>) {
    self.value = value
  }

  /// The value as a `T`.
  ///
  /// - Throws: `RecordedValueError` when the recorded value does not decode as a `T` (the
  ///   type changed shape since the recording).
  public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
    let recorded = try value.get()
    do {
      return try TraceValueDecoder().decode(T.self, from: recorded)
    } catch {
      throw RecordedValueError(
        description: "the recorded value \(recorded) does not decode as \(T.self): \(error)")
    }
  }

  /// The recorded tree itself.
  func traceValue() throws -> TraceValue {
    try value.get()
  }
}

/// A recorded value that a generated test could not read or decode, with what and why.
public struct RecordedValueError: Error, Sendable, CustomStringConvertible {
  public var description: String
}

extension Decodable {
  /// The recorded value decoded as this type: how a generated test writes a value whose Swift
  /// type only the compiler knows (`.filterChanged(.recorded("active"))`).
  public static func recorded(_ value: RecordedValue) throws -> Self {
    try value.decode(as: Self.self)
  }
}
