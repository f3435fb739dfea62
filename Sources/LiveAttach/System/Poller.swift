#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waits until one of several sockets can be read or written (`poll`).
///
/// ```swift
/// var poller = Poller()
/// poller.add(listener, reading: true, writing: false)
/// let ready = poller.wait(milliseconds: 1_000)   // entries with their events filled in
/// ```
package struct Poller {
  /// A socket polled, and what it was found ready for.
  package struct Entry {
    package var socket: UnixSocket
    package var readable = false
    package var writable = false
    /// An error or hang-up: the connection is over.
    package var failed = false
  }

  private var entries: [Entry] = []
  private var descriptors: [pollfd] = []

  package init() {}

  package mutating func add(_ socket: UnixSocket, reading: Bool, writing: Bool) {
    var events: Int16 = 0
    if reading { events |= Int16(POLLIN) }
    if writing { events |= Int16(POLLOUT) }
    entries.append(Entry(socket: socket))
    descriptors.append(pollfd(fd: socket.descriptor, events: events, revents: 0))
  }

  /// Waits up to `milliseconds` (-1: without end) and returns every entry that became ready.
  package mutating func wait(milliseconds: Int32) -> [Entry] {
    defer {
      entries.removeAll(keepingCapacity: true)
      descriptors.removeAll(keepingCapacity: true)
    }
    let count = descriptors.withUnsafeMutableBufferPointer { buffer in
      poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
    }
    guard count > 0 else { return [] }
    var ready: [Entry] = []
    for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
      var entry = entries[index]
      let events = Int32(descriptor.revents)
      entry.readable = events & Int32(POLLIN) != 0
      entry.writable = events & Int32(POLLOUT) != 0
      entry.failed = events & (Int32(POLLERR) | Int32(POLLHUP) | Int32(POLLNVAL)) != 0
      ready.append(entry)
    }
    return ready
  }
}
