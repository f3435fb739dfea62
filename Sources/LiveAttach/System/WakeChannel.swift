/// Wakes a thread waiting in `Poller.wait` from another thread: one end of a socket pair is
/// polled, the other is written to.
///
/// ```swift
/// let wake = try WakeChannel()
/// poller.add(wake.socket, reading: true, writing: false)
/// wake.signal()      // from any thread
/// wake.drain()       // by the polling thread, once woken
/// ```
package final class WakeChannel: Sendable {
  /// The end the waiting thread polls.
  package let socket: UnixSocket
  private let sender: UnixSocket

  package init() throws(SystemError) {
    (socket, sender) = try UnixSocket.pair()
  }

  /// Wakes the poller (a full channel already will).
  package func signal() {
    _ = sender.write([1][...])
  }

  /// Empties the channel so that the next poll waits again.
  package func drain() {
    var buffer: [UInt8] = []
    while case .moved = socket.read(into: &buffer, upTo: 256) {
      buffer.removeAll(keepingCapacity: true)
    }
  }
}
