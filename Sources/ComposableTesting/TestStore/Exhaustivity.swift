/// How strictly a `TestStore` asserts.
///
/// ```swift
/// store.exhaustivity = .off                                // assert what the test cares about
/// store.exhaustivity = .off(showSkippedAssertions: true)   // …and show what it skipped
/// ```
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every effect must be asserted.
  case on
  /// Only what the test asserts is checked; the rest is skipped, and shown without failing
  /// the test when `showSkippedAssertions` is true.
  case off(showSkippedAssertions: Bool)

  /// Only what the test asserts is checked; the rest is skipped silently.
  public static let off = Self.off(showSkippedAssertions: false)
}
