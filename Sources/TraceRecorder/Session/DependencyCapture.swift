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
@usableFromInline
final class DependencyCapture: @unchecked Sendable {
  // Written only by the reducing thread; `owner` tells other threads to stay away.
  @usableFromInline let owner = Atomic<UInt>(0)
  /// Behind a pointer: stored `var`s of a class pay a dynamic exclusivity check per access.
  @usableFromInline let state: UnsafeMutablePointer<State>

  @usableFromInline
  struct State {
    @usableFromInline var reads: [DependencyRead] = []
    @usableFromInline var upstream: DependencyValues?
    @usableFromInline var overridden = DependencyValues()
  }

  @usableFromInline init() {
    state = UnsafeMutablePointer.allocate(capacity: 1)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Runs `body` with the capturing generators in force.
  @inlinable
  func run<R>(_ body: () -> R) -> (R, [DependencyRead]) {
    let current = DependencyValues.current
    if !isSameValue(current) { rebuild(from: current) }
    owner.store(Self.threadID(), ordering: .releasing)
    let result = DependencyValues.$current.withValue(state.pointee.overridden, operation: body)
    owner.store(0, ordering: .releasing)
    if state.pointee.reads.isEmpty { return (result, []) }
    let captured = state.pointee.reads
    state.pointee.reads.removeAll(keepingCapacity: true)
    return (result, captured)
  }

  /// Whether `current` is the value the overrides were derived from (same buffers).
  @usableFromInline
  func isSameValue(_ current: DependencyValues) -> Bool {
    state.pointee.upstream?.isIdentical(to: current) ?? false
  }

  @usableFromInline
  func rebuild(from current: DependencyValues) {
    state.pointee.upstream = current
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
    state.pointee.overridden = values
  }

  private func record(_ key: String, _ value: TraceValue) {
    guard owner.load(ordering: .acquiring) == Self.threadID() else { return }
    state.pointee.reads.append(DependencyRead(key: key, value: value))
  }

  @inlinable
  static func threadID() -> UInt {
    #if canImport(Glibc)
      return UInt(pthread_self())
    #else
      return UInt(bitPattern: pthread_self())
    #endif
  }
}
