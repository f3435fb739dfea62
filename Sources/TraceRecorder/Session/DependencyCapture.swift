import ComposableCore
import Foundation
import Synchronization
import TraceKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Captures the values the wrapped reducer reads from `uuid`, `date` and
/// `withRandomNumberGenerator` during one step, by overriding them for the reducer call.
///
/// Effects created during the step inherit the overriding generators; their reads happen
/// later (or on other threads) and are not step reads, so a read counts only on the thread
/// that is reducing, while it reduces.
///
/// ```swift
/// let (effect, reads) = capture.run { reducer.reduce(into: &state, action: action) }
/// // reads: [DependencyRead(key: "uuid", value: .string("…"))]
/// ```
final class DependencyCapture: @unchecked Sendable {
  // Written only by the reducing thread; `owner` tells other threads to stay away.
  private let owner = Atomic<UInt>(0)
  private var reads: [DependencyRead] = []
  private var upstream: DependencyValues?
  private var overridden = DependencyValues()

  /// Runs `body` with the capturing generators in force.
  func run<R>(_ body: () -> R) -> (R, [DependencyRead]) {
    let current = DependencyValues.current
    if !isSameValue(current) { rebuild(from: current) }
    owner.store(Self.threadID(), ordering: .releasing)
    let result = DependencyValues.$current.withValue(overridden, operation: body)
    owner.store(0, ordering: .releasing)
    if reads.isEmpty { return (result, []) }
    let captured = reads
    reads.removeAll(keepingCapacity: true)
    return (result, captured)
  }

  /// Whether `current` is the value the overrides were derived from (same buffers).
  private func isSameValue(_ current: DependencyValues) -> Bool {
    upstream?.isIdentical(to: current) ?? false
  }

  private func rebuild(from current: DependencyValues) {
    upstream = current
    var values = current
    let uuid = current.uuid
    let date = current.date
    let random = current.withRandomNumberGenerator
    values.uuid = UUIDGenerator { [weak self] in
      let value = uuid()
      self?.record("uuid", .string(value.uuidString))
      return value
    }
    values.date = DateGenerator { [weak self] in
      let value = date()
      self?.record("date", .double(value.timeIntervalSinceReferenceDate))
      return value
    }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(next: { [weak self] in
      let value = random.next()
      self?.record(
        "random", value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value))
      return value
    })
    overridden = values
  }

  private func record(_ key: String, _ value: TraceValue) {
    guard owner.load(ordering: .acquiring) == Self.threadID() else { return }
    reads.append(DependencyRead(key: key, value: value))
  }

  static func threadID() -> UInt {
    #if canImport(Glibc)
      return UInt(pthread_self())
    #else
      return UInt(bitPattern: pthread_self())
    #endif
  }
}
