#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A Unix-domain stream socket this process owns: a listener or a connection. Never TCP.
///
/// Sockets are non-blocking and close-on-exec; writes never raise SIGPIPE. The descriptor is
/// closed by `close()` or, at the latest, in `deinit`.
///
/// ```swift
/// let listener = try UnixSocket.listen(at: "/run/user/0/rewind/.12.tmp")
/// let client = try UnixSocket.connect(to: "/run/user/0/rewind/12.sock")
/// client.write(bytes[...])   // .wrote(n), .wouldBlock or .closed
/// ```
package final class UnixSocket: @unchecked Sendable {
  /// The descriptor (-1 once closed).
  package private(set) var descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    close()
  }

  /// Closes the descriptor; later calls do nothing.
  package func close() {
    guard descriptor >= 0 else { return }
    _ = Glibc.close(descriptor)
    descriptor = -1
  }

  /// The longest path a socket address holds (`sun_path`, with its terminating zero).
  package static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  private static func make(_ operation: String, path: String) throws(SystemError) -> UnixSocket {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | Int32(SOCK_NONBLOCK.rawValue)
    let descriptor = socket(AF_UNIX, type, 0)
    guard descriptor >= 0 else { throw SystemError.last("socket", path: path) }
    return UnixSocket(descriptor: descriptor)
  }

  /// Calls `body` with the address of `path`.
  private static func withAddress<T>(
    _ path: String, _ operation: String,
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
  ) throws(SystemError) -> T {
    let bytes = Array(path.utf8)
    guard bytes.count <= maximumPathBytes, !bytes.contains(0) else {
      throw SystemError(operation: operation, path: path, code: ENAMETOOLONG)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        body(address, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  /// A listening socket bound at `path` (which must not exist).
  package static func listen(at path: String, backlog: Int32 = 64) throws(SystemError)
    -> UnixSocket
  {
    let socket = try make("socket", path: path)
    let bound = try withAddress(path, "bind") { address, length in
      bind(socket.descriptor, address, length)
    }
    guard bound == 0 else { throw SystemError.last("bind", path: path) }
    guard Glibc.listen(socket.descriptor, backlog) == 0 else {
      throw SystemError.last("listen", path: path)
    }
    return socket
  }

  /// A connection to the socket listening at `path`; while the listener's backlog is full
  /// (an app busy accepting others), it tries again for up to `patience`.
  package static func connect(
    to path: String, waitingUpTo patience: Duration = .seconds(5)
  ) throws(SystemError) -> UnixSocket {
    let socket = try make("socket", path: path)
    let deadline = ContinuousClock.now.advanced(by: patience)
    while true {
      let connected = try withAddress(path, "connect") { address, length in
        Glibc.connect(socket.descriptor, address, length)
      }
      if connected == 0 { return socket }
      // A Unix-domain connect completes at once, or fails with EAGAIN when the listener's
      // backlog is full: then nothing is queued and the socket is not connected (reading it
      // would look like a closed connection), so try again until the app has caught up.
      guard errno == EAGAIN, ContinuousClock.now < deadline else {
        throw SystemError.last("connect", path: path)
      }
      usleep(1_000)
    }
  }

  /// The next pending connection of a listener, non-blocking and close-on-exec; nil when none
  /// is pending.
  package func accept() throws(SystemError) -> UnixSocket? {
    let accepted = Glibc.accept(descriptor, nil, nil)
    guard accepted >= 0 else {
      if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED {
        return nil
      }
      throw SystemError.last("accept")
    }
    let connection = UnixSocket(descriptor: accepted)
    _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
    _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
    return connection
  }

  /// The user id of the process at the other end, as the kernel recorded it when it
  /// connected (`SO_PEERCRED`).
  package func peerUserID() throws(SystemError) -> UInt32 {
    // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc hides it without _GNU_SOURCE).
    var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout.size(ofValue: credentials))
    guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
      throw SystemError.last("getsockopt SO_PEERCRED")
    }
    return credentials.uid
  }

  /// What a read or a write did.
  package enum Transfer: Equatable, Sendable {
    /// This many bytes moved.
    case moved(Int)
    /// Nothing can move now; poll for it.
    case wouldBlock
    /// The other end closed (or reset) the connection.
    case closed
  }

  /// Reads what is available into `buffer`, appending.
  package func read(into buffer: inout [UInt8], upTo count: Int = 65_536) -> Transfer {
    var received = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: max(1, count)) { raw, initialized in
      received = recv(descriptor, raw.baseAddress, max(1, count), 0)
      initialized = max(0, received)
    }
    if received > 0 {
      buffer.append(contentsOf: bytes)
      return .moved(received)
    }
    if received == 0 { return .closed }
    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
    return .closed
  }

  /// Writes as much of `bytes` as the socket takes now.
  package func write(_ bytes: ArraySlice<UInt8>) -> Transfer {
    guard !bytes.isEmpty else { return .moved(0) }
    let sent = bytes.withUnsafeBytes { raw in
      send(descriptor, raw.baseAddress!, raw.count, Int32(MSG_NOSIGNAL))
    }
    if sent >= 0 { return .moved(sent) }
    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
    return .closed
  }

  /// Makes a pair of connected sockets (a wake-up channel between two threads).
  package static func pair() throws(SystemError) -> (UnixSocket, UnixSocket) {
    var descriptors: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | Int32(SOCK_NONBLOCK.rawValue)
    guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
      throw SystemError.last("socketpair")
    }
    return (UnixSocket(descriptor: descriptors[0]), UnixSocket(descriptor: descriptors[1]))
  }
}
