#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock over a `pthread_mutex_t` with the part of `Mutex`'s API the package uses: `Lock`
/// in ThreadSanitizer builds (see `Lock`). It is compiled and tested in every build, so it
/// cannot fall behind while only the sanitizer run selects it. The mutex and the value live
/// on the heap: a `pthread_mutex_t` must not move once initialized, and this struct may.
///
/// ```swift
/// let names = PthreadLock<[String]>([])
/// names.withLock { $0.append("rewind-writer") }
/// ```
package struct PthreadLock<Value: ~Copyable>: ~Copyable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  package init(_ initialValue: consuming sending Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // A default mutex with default attributes: initialization cannot fail on Linux or Darwin.
    _ = pthread_mutex_init(mutex, nil)
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    _ = pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the mutex; the mutex is released when `body`
  /// returns or throws.
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    // Locking an initialized default mutex the caller does not hold cannot fail.
    _ = pthread_mutex_lock(mutex)
    defer { _ = pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}

extension PthreadLock: @unchecked Sendable where Value: ~Copyable {}
