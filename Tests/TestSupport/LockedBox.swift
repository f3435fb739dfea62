import Foundation

/// A value shared between threads in tests, behind a lock.
///
/// ```swift
/// let seen = LockedBox<[Int]>([])
/// seen.mutate { $0.append(1) }   // from any thread
/// seen.value                     // [1]
/// ```
public final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  public init(_ value: Value) { stored = value }

  public var value: Value { lock.withLock { stored } }

  public func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
