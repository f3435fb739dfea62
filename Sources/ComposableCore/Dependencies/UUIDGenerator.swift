import Foundation
import Locking

/// Makes UUIDs: a value wrapping a closure, so tests (and typed replay) can replace it.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
///
/// // In a test:
/// $0.uuid = .incrementing
/// // 00000000-0000-0000-0000-000000000000, then …-000000000001, …
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// A generator from a closure.
  ///
  /// Each UUID it makes while a store reduces on this thread is reported to the store's
  /// instrument (the Recorder), once even when this generator calls another.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = { ReducingContext.read(generate, report: DependencyValueRead.uuid) }
  }

  /// The next UUID.
  public func callAsFunction() -> UUID {
    generate()
  }

  /// Foundation's random UUIDs.
  public static let random = UUIDGenerator { UUID() }

  /// Always the same UUID.
  public static func constant(_ uuid: UUID) -> UUIDGenerator {
    UUIDGenerator { uuid }
  }

  /// 00000000-0000-0000-0000-000000000000, then …001, …002, … (each generator counts alone).
  public static var incrementing: UUIDGenerator {
    let counter = Lock<UInt64>(0)
    return UUIDGenerator {
      let value = counter.withLock { value in
        defer { value += 1 }
        return value
      }
      return UUID(counting: value)
    }
  }
}

extension UUID {
  /// The UUID whose last 12 hex digits spell `value` (the shape `.incrementing` produces).
  init(counting value: UInt64) {
    let hex = String(value, radix: 16, uppercase: true)
    let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex.suffix(12)
    self = UUID(uuidString: "00000000-0000-0000-0000-\(tail)") ?? UUID(uuid: (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    ))
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.random
  static var testValue: UUIDGenerator {
    UUIDGenerator {
      reportUnimplemented("\\.uuid", fix: "$0.uuid = .incrementing")
      return UUID(counting: 0)
    }
  }
}

extension DependencyValues {
  /// Makes UUIDs. Live: random. In tests: must be overridden (e.g. `.incrementing`).
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

/// Reports a built-in non-deterministic dependency used in a test without an override.
func reportUnimplemented(_ keyPath: String, fix: String) {
  reportIssue(
    """
    @Dependency(\(keyPath)) was used in a test without being overridden, and its value is \
    not deterministic. Override it for the test, e.g. "\(fix)".
    """
  )
}
