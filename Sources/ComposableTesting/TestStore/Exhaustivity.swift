/// How strictly a `TestStore` asserts.
///
/// ```swift
/// store.exhaustivity = .off   // assert only what the test cares about
/// ```
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every effect must be asserted.
  case on
  /// Only what the test asserts is checked; the rest is skipped.
  case off
}
