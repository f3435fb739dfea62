import Foundation

/// A value a reducer read from a non-deterministic dependency while a root core reduced: what
/// `StoreInstrument.dependencyRead(_:)` is told.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()   // .uuid(id), reported for the step being reduced
/// ```
@usableFromInline
package enum DependencyValueRead: Sendable, Hashable, CustomStringConvertible {
  /// `@Dependency(\.uuid)` made this UUID.
  case uuid(UUID)
  /// `@Dependency(\.date)` told this date.
  case date(Date)
  /// `@Dependency(\.withRandomNumberGenerator)` gave these 64 random bits.
  case random(UInt64)
  /// `@Dependency(\.continuousClock).now`, as the time since the first `now` this store's
  /// reducers read from a clock of the same type (an instant has no meaning across processes).
  case clockNow(Duration)

  @usableFromInline package var description: String {
    switch self {
    case .uuid(let value): "uuid \(value.uuidString)"
    case .date(let value): "date \(value.timeIntervalSinceReferenceDate)"
    case .random(let value): "random \(value)"
    case .clockNow(let value): "clock \(value)"
    }
  }
}
