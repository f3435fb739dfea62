import ComposableCore
import Foundation
import Locking
import TraceKit

/// The values a recording's reducer read, served back in order to the test generated from it;
/// reading more than were recorded is reported, and then gets a fixed value.
final class RecordedSequence<Value: Sendable>: Sendable {
  private let values: Lock<(next: Int, values: [Result<Value, RecordedValueError>])>
  private let name: String
  private let fallback: Value

  init(
    _ name: String, _ values: [RecordedValue], fallback: Value,
    decode: (TraceValue) -> Value?
  ) {
    self.name = name
    self.fallback = fallback
    self.values = Lock(
      (0, values.map { recorded in
        Result {
          let value = try recorded.traceValue()
          guard let decoded = decode(value) else {
            throw RecordedValueError(description: "\(value) is not a recorded \(name)")
          }
          return decoded
        }.mapError { $0 as? RecordedValueError ?? RecordedValueError(description: "\($0)") }
      }))
  }

  func next() -> Value {
    let (taken, count) = values.withLock { state -> (Result<Value, RecordedValueError>?, Int) in
      defer { state.next += 1 }
      return (state.next < state.values.count ? state.values[state.next] : nil, state.values.count)
    }
    switch taken {
    case .success(let value)?:
      return value
    case .failure(let error)?:
      reportIssue("\(error)")
    case nil:
      reportIssue(
        "The test read more \(name) values than the trace recorded (\(count)): the feature now "
          + "reads \(name) where it did not when it was recorded.")
    }
    return fallback
  }
}

extension UUIDGenerator {
  /// The UUIDs a recording's reducer read, in order (`.recorded("5E41AB08-…", "0B95F66D-…")`).
  public static func recorded(_ values: RecordedValue...) -> UUIDGenerator {
    let sequence = RecordedSequence(
      "uuid", values, fallback: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    ) { value in
      (try? TraceValueDecoder().decode(UUID.self, from: value))
    }
    return UUIDGenerator { sequence.next() }
  }
}

extension DateGenerator {
  /// The dates a recording's reducer read, in order, as the trace wrote them.
  public static func recorded(_ values: RecordedValue...) -> DateGenerator {
    let sequence = RecordedSequence(
      "date", values, fallback: Date(timeIntervalSinceReferenceDate: 0)
    ) { value in
      (try? TraceValueDecoder().decode(Date.self, from: value))
    }
    return DateGenerator { sequence.next() }
  }
}

extension WithRandomNumberGenerator {
  /// The 64-bit random numbers a recording's reducer drew, in order.
  public static func recorded(_ values: RecordedValue...) -> WithRandomNumberGenerator {
    let sequence = RecordedSequence("random", values, fallback: UInt64(0)) { value in
      switch value {
      case .int(let bits): UInt64(bitPattern: bits)
      case .uint(let bits): bits
      default: nil
      }
    }
    return WithRandomNumberGenerator(next: { sequence.next() })
  }
}
