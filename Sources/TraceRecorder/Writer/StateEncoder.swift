import TraceKit

/// Turns each recorded state into its (redacted) `TraceValue`.
///
/// ```swift
/// var encoder = StateEncoder<AppState>(redaction: Redaction(paths: []))
/// let value = try encoder.encode(state)
/// ```
struct StateEncoder<State: Encodable> {
  let redaction: Redaction
  private let encoder = TraceValueEncoder()

  init(redaction: Redaction) {
    self.redaction = redaction
  }

  mutating func encode(_ state: State) throws -> TraceValue {
    var value = try encoder.encode(state)
    if !redaction.isEmpty { redaction.apply(to: &value) }
    return value
  }
}
