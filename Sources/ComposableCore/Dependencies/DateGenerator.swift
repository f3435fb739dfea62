import Foundation

/// Tells the current date: a value wrapping a closure, so tests (and typed replay) can replace
/// it.
///
/// ```swift
/// @Dependency(\.date) var date
/// state.createdAt = date.now
///
/// // In a test:
/// $0.date = .constant(Date(timeIntervalSince1970: 0))
/// ```
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// A generator from a closure.
  ///
  /// Each date it tells while a store reduces on this thread is reported to the store's
  /// instrument (the Recorder), once even when this generator calls another.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = { ReducingContext.read(generate, report: DependencyValueRead.date) }
  }

  /// The current date.
  public var now: Date { generate() }

  /// The current date.
  public func callAsFunction() -> Date {
    generate()
  }

  /// Always the same date.
  public static func constant(_ date: Date) -> DateGenerator {
    DateGenerator { date }
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
  static var testValue: DateGenerator {
    DateGenerator {
      reportUnimplemented("\\.date", fix: "$0.date = .constant(Date(timeIntervalSince1970: 0))")
      return Date(timeIntervalSince1970: 0)
    }
  }
}

extension DependencyValues {
  /// The current date. Live: the system clock. In tests: must be overridden.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
