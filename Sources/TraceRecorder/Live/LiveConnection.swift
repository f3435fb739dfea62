import LiveAttach
import TraceKit

/// One inspector connected to the live server: what it sent that is not read yet, what it is
/// owed, and where it is in the history if it watches. Used by the server's thread only.
///
/// ```swift
/// let connection = LiveConnection(id: 1, socket: accepted)
/// connection.queue(.welcome(welcome))
/// connection.flush()   // as much as the socket takes now
/// ```
final class LiveConnection {
  /// How much output may wait for a connection before the server stops reading the history
  /// for it: a client that stops reading costs this much memory and no more.
  static let outputLimit = 256 << 10

  let id: Int
  let socket: UnixSocket
  var reader = FrameReader(limit: LiveProtocol.requestLimit)
  private var output: [UInt8] = []
  private var written = 0
  private var steps = StepFrameWriter()
  /// Whether `hello` was received.
  var isGreeted = false
  /// Where a watching connection is in the history.
  var watch: Watch?
  /// Commands handed to the main actor and not answered yet.
  var commandsInFlight = 0
  /// Whether the connection ends once its output is written (nothing more is read).
  var isClosing = false
  /// Whether the socket is closed.
  private(set) var isClosed = false

  /// A watcher's place in the history.
  struct Watch {
    var id: Int
    /// Whether it stays after the history for the steps that follow.
    var live: Bool
    /// Whether the watch was answered `ok`.
    var isAnswered = false
    /// Whether the start and the first base were sent.
    var isOpened = false
    /// The sequence number of the next event to send.
    var next = 0
    /// The store's last captured step when the watch began: the history the watcher is sent
    /// reaches it (the writer puts a captured step in the history a little later).
    var holding: Int
    /// The history's last step and when it last grew while the watch waited for `holding`.
    var waited: (step: Int, since: ContinuousClock.Instant) = (0, .now)
    /// The end of what the history held when the watch opened.
    var historyEnd = 0
    var isHistorySent = false
    /// The last step sent, to count the steps a gap skips.
    var lastStep = 0
  }

  init(id: Int, socket: UnixSocket) {
    self.id = id
    self.socket = socket
  }

  var pendingOutput: Int { output.count - written }
  var wantsToWrite: Bool { pendingOutput > 0 }
  var hasRoom: Bool { pendingOutput < Self.outputLimit }

  func queue(_ message: LiveMessage) {
    message.appendFrame(to: &output, steps: &steps)
  }

  /// Writes as much as the socket takes; a connection whose other end is gone is closed.
  func flush() {
    while written < output.count, !isClosed {
      switch socket.write(output[written...]) {
      case .moved(let count): written += count
      case .wouldBlock: return
      case .closed: close()
      }
    }
    if written == output.count {
      output.removeAll(keepingCapacity: output.capacity <= Self.outputLimit)
      written = 0
      if isClosing { close() }
    } else if written > Self.outputLimit {
      output.removeFirst(written)
      written = 0
    }
  }

  /// Reads what arrived; false when the other end closed.
  func receive() -> Bool {
    var bytes: [UInt8] = []
    switch socket.read(into: &bytes) {
    case .moved:
      reader.append(bytes)
      return true
    case .wouldBlock:
      return true
    case .closed:
      close()
      return false
    }
  }

  func close() {
    isClosed = true
    socket.close()
  }
}
