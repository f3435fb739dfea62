import Foundation

/// An inspector's connection to a live app: says hello, then sends commands and reads what
/// the app sends, each with a time limit (the app never blocks on a client, and a client
/// never waits forever on an app).
///
/// ```swift
/// let client = try LiveClient(socketPath: app.socketPath)
/// client.welcome.name                        // "rewind-demo"
/// let (status, step) = try client.run(.jump(step: 12))
/// status.text                                // "paused at step 12 (jumped; …)"
/// ```
package final class LiveClient {
  package let socketPath: String
  package let welcome: LiveWelcome
  private let socket: UnixSocket
  private var reader = FrameReader(limit: LiveProtocol.messageLimit)
  private var nextID = 1
  /// Messages read while waiting for an answer, handed out by `receive` in order.
  private var backlog: [LiveMessage] = []

  /// Connects and says hello.
  ///
  /// - Throws: `LiveClientError` when the socket cannot be reached, the app refuses (another
  ///   user, another protocol version), or it does not answer within `timeout`.
  package init(socketPath: String, timeout: Duration = .seconds(5)) throws(LiveClientError) {
    self.socketPath = socketPath
    do {
      socket = try UnixSocket.connect(to: socketPath)
    } catch {
      throw .unreachable(error)
    }
    var welcome: LiveWelcome?
    do {
      try Self.write(LiveMessage.hello(version: LiveProtocol.version).frame(), to: socket, timeout)
    } catch {
      // An app that refuses a peer says why and closes at once, maybe before the hello
      // arrived: what it said is still there to read.
      guard case .closed = error else { throw error }
    }
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while welcome == nil {
      switch try Self.read(socket, &reader, until: deadline, timeout) {
      case .welcome(let received): welcome = received
      case .error(_, let code, let message): throw .refused(code: code, message: message)
      default: continue
      }
    }
    self.welcome = welcome!
  }

  deinit {
    socket.close()
  }

  package func close() {
    socket.close()
  }

  /// Sends one message.
  package func send(_ message: LiveMessage, timeout: Duration = .seconds(5))
    throws(LiveClientError)
  {
    try Self.write(message.frame(), to: socket, timeout)
  }

  /// Asks the app to do `command`; returns the store's status after it and the step it made.
  ///
  /// - Throws: `LiveClientError.refused` with the app's reason when it refused.
  @discardableResult
  package func run(_ command: LiveCommand, timeout: Duration = .seconds(10))
    throws(LiveClientError) -> (status: LiveStatus, step: Int?)
  {
    let id = nextID
    nextID += 1
    try send(.command(id: id, command), timeout: timeout)
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
      let message = try Self.read(socket, &reader, until: deadline, timeout)
      switch message {
      case .ok(id, let status, let step): return (status, step)
      case .error(id, let code, let text): throw .refused(code: code, message: text)
      case .error(nil, let code, let text): throw .refused(code: code, message: text)
      default: backlog.append(message)
      }
    }
  }

  /// Starts watching: the history, then (when `live`) each step as it happens; read them with
  /// `receive`.
  package func watch(live: Bool, timeout: Duration = .seconds(10)) throws(LiveClientError) {
    let id = nextID
    nextID += 1
    try send(.watch(id: id, live: live), timeout: timeout)
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
      let message = try Self.read(socket, &reader, until: deadline, timeout)
      switch message {
      case .ok(id, _, _): return
      case .error(id, let code, let text), .error(nil, let code, let text):
        throw .refused(code: code, message: text)
      default: backlog.append(message)
      }
    }
  }

  /// The next message from the app, waiting up to `timeout` (nil: without end); nil when
  /// none came in time.
  ///
  /// - Throws: `LiveClientError.closed` once the app closed the connection.
  package func receive(timeout: Duration?) throws(LiveClientError) -> LiveMessage? {
    if !backlog.isEmpty { return backlog.removeFirst() }
    let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
    do {
      return try Self.read(socket, &reader, until: deadline, timeout ?? .zero)
    } catch {
      if case .timeout = error { return nil }
      throw error
    }
  }

  // MARK: Blocking on a non-blocking socket

  private static func write(_ bytes: [UInt8], to socket: UnixSocket, _ timeout: Duration)
    throws(LiveClientError)
  {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var offset = 0
    while offset < bytes.count {
      switch socket.write(bytes[offset...]) {
      case .moved(let count): offset += count
      case .closed: throw .closed
      case .wouldBlock:
        var poller = Poller()
        poller.add(socket, reading: false, writing: true)
        guard let wait = milliseconds(until: deadline) else {
          throw .timeout(seconds: seconds(timeout))
        }
        _ = poller.wait(milliseconds: wait)
      }
    }
  }

  private static func read(
    _ socket: UnixSocket, _ reader: inout FrameReader, until deadline: ContinuousClock.Instant?,
    _ timeout: Duration
  ) throws(LiveClientError) -> LiveMessage {
    while true {
      do {
        if let payload = try reader.next() { return try LiveMessage(json: payload) }
      } catch {
        throw .protocolError(error)
      }
      var bytes: [UInt8] = []
      switch socket.read(into: &bytes, upTo: 1 << 20) {
      case .moved:
        reader.append(bytes)
      case .closed:
        throw .closed
      case .wouldBlock:
        var wait: Int32 = -1
        if let deadline {
          guard let left = milliseconds(until: deadline) else {
            throw .timeout(seconds: seconds(timeout))
          }
          wait = left
        }
        var poller = Poller()
        poller.add(socket, reading: true, writing: false)
        _ = poller.wait(milliseconds: wait)
      }
    }
  }

  /// Milliseconds left until `deadline` (at least 1), or nil once it passed.
  private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32? {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { return nil }
    let (seconds, attoseconds) = left.components
    return Int32(clamping: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
  }

  private static func seconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds)
  }
}
