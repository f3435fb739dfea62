import Locking
import Synchronization

/// A table that many threads read without a lock and that is replaced, never changed, when
/// something is added to it: the process-wide caches on the send's path (`KeyPathOffsets`'s
/// offsets, `PublishedValueCache`'s dependency values) are read on every child action or
/// dependency read, and a lock there cost more than the look-up itself.
///
/// - Readers (any thread) load the current table's address with acquiring ordering and look
///   into its contents, which were written before the address was stored; they take no lock
///   and retain nothing.
/// - Publishers (any thread) go through `publish`, which holds a `Lock` while it reads the
///   current contents, decides, and stores the address of a new table with releasing ordering;
///   two publishers therefore never lose each other's additions.
/// - A replaced table is kept, never freed: a reader on another thread may still be looking
///   into it, and there is no cheap way to know when it is done. Tables are replaced only when
///   something is added, so each user bounds what is kept by bounding its additions (a slot
///   filled once, a key computed once).
///
/// ```swift
/// let table = PublishedTable<[Int]>()
/// table.read { $0.count }                             // nil: nothing published
/// table.publish { current in ((current ?? []) + [7], ()) }
/// table.read { $0.count }                             // Optional(1)
/// ```
@usableFromInline
package final class PublishedTable<Contents: Sendable>: Sendable {
  /// A published table; immutable.
  @usableFromInline
  final class Snapshot: Sendable {
    @usableFromInline let contents: Contents

    init(_ contents: Contents) {
      self.contents = contents
    }
  }

  /// The address of the current snapshot (0: none yet), retained once and never released
  /// (see the type's comment).
  @usableFromInline let published = Atomic<UInt>(0)
  /// Serializes publishing.
  private let publishing = Lock(())

  @usableFromInline package init() {}

  /// `body` applied to the current contents, without a lock; nil when nothing is published.
  @inlinable @inline(__always)
  package func read<Result>(_ body: (Contents) -> Result) -> Result? {
    // Acquiring: the snapshot's contents were written before its address was published.
    guard let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) else {
      return nil
    }
    return Unmanaged<Snapshot>.fromOpaque(raw)._withUnsafeGuaranteedRef { body($0.contents) }
  }

  /// Runs `update` under the publishing lock on the current contents (nil: none yet) and
  /// publishes the contents it returns (nil: keep the current ones); returns its result.
  @usableFromInline
  package func publish<Result>(
    _ update: (Contents?) -> (contents: Contents?, result: Result)
  ) -> Result {
    publishing.withLock { _ in
      let current = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)).map {
        Unmanaged<Snapshot>.fromOpaque($0).takeUnretainedValue().contents
      }
      let (contents, result) = update(current)
      if let contents {
        let snapshot = Unmanaged.passRetained(Snapshot(contents))
        published.store(UInt(bitPattern: snapshot.toOpaque()), ordering: .releasing)
      }
      return result
    }
  }
}
