import Synchronization

/// The package's lock: `Synchronization.Mutex` in every normal build, so `Lock` compiles to
/// exactly the code `Mutex` does. A ThreadSanitizer build (`tools/sanitize thread`, which
/// passes `-Xswiftc -DREWIND_TSAN_LOCKS`) makes it a `PthreadLock` instead: on Linux a
/// contended `Mutex` waits in a futex inside the uninstrumented libswiftSynchronization.so,
/// so TSan sees no acquire there and reports two `withLock` bodies of one lock as a race;
/// TSan intercepts `pthread_mutex_lock`, so with `PthreadLock` it sees every acquire.
///
/// ```swift
/// let counter = Lock(0)
/// let next = counter.withLock { value in value += 1; return value }
/// ```
#if REWIND_TSAN_LOCKS
  package typealias Lock<Value: ~Copyable> = PthreadLock<Value>
#else
  package typealias Lock<Value: ~Copyable> = Mutex<Value>
#endif
