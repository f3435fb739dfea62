import Foundation
import LiveAttach
import Locking
import Synchronization
import TraceKit

/// Listens on this process's socket in the user's live directory and serves inspectors, on a
/// thread of its own: the history first, then each step as the writer records it; pause,
/// jump, resume, continue and send, done by the main actor through the store's control.
///
/// Nothing an inspector does can block the app: sockets never block, a client that stops
/// reading holds at most `LiveConnection.outputLimit` bytes and then falls behind the history
/// (it is told how many steps it missed); frames over the size limit, malformed or unknown
/// messages are answered with an error; a peer of another user is refused. The main actor
/// only runs a command and hands the answer back.
///
/// ```swift
/// let server = try LiveServer(directory: directory, name: "my-app", file: nil,
///                             history: history, store: bridge)
/// // … `inspector ps` lists the process; `inspector attach <pid>` watches it …
/// server.stop()
/// server.join()
/// ```
final class LiveServer: Sendable {
  /// How many inspectors may be connected at once.
  static let connectionLimit = 64
  /// How long the server goes on sending to watchers once the recording ended.
  static let closingGrace: Duration = .seconds(1)
  /// How long a jump waits for a history that stopped growing short of its step (a step the
  /// recorder dropped is known only when a later one reaches the history).
  static let historyWait: Duration = .seconds(2)

  let socketPath: String
  let directory: LiveDirectory
  let name: String
  let file: String?
  let history: LiveHistory
  let store: any LiveStoreHandle
  /// The store's last step as captured (the history gets it a few milliseconds later).
  private let capturedSteps = Lock<(@Sendable () -> Int)?>(nil)
  private let wake: WakeChannel
  private let inbox = Lock(Inbox())
  private let thread = Lock<WriterThread?>(nil)
  /// The store's status after the last command (a welcome reports it).
  private let lastStatus = Lock(LiveStatus(lastStep: 0, isPaused: false))
  /// How many requests wait for the history (tests wait for a jump or a watch to be held back).
  private let waitingCount = Atomic<Int>(0)

  /// What other threads hand the server's thread.
  private struct Inbox {
    var answers: [(connection: Int, message: LiveMessage, status: LiveStatus?)] = []
    var stopReason: String?
  }

  /// Why the server could not listen.
  struct StartError: Error, CustomStringConvertible {
    var description: String
  }

  /// Binds the socket, makes it the user's alone (0600) and starts serving.
  init(
    directory: LiveDirectory, name: String, file: String?, history: LiveHistory,
    store: any LiveStoreHandle
  ) throws(StartError) {
    let pid = ProcessFacts.currentID
    socketPath = directory.socketPath(pid: pid)
    self.directory = directory
    self.name = name
    self.file = file
    self.history = history
    self.store = store
    let temporary = directory.temporarySocketPath(pid: pid)
    let listener: UnixSocket
    do {
      wake = try WakeChannel()
      // A socket of this pid is left by an earlier process that had this pid and was killed.
      directory.remove(temporary)
      listener = try UnixSocket.listen(at: temporary)
      try directory.publish(temporary, as: socketPath)
    } catch {
      directory.remove(temporary)
      throw StartError(description: error.description)
    }
    ExitCleanup.register(socketPath)
    let loop = LiveServerLoop(server: self, listener: listener)
    history.onChange { [wake] in wake.signal() }
    do {
      let started = try WriterThread(name: "rewind-live") { loop.run() }
      thread.withLock { $0 = started }
    } catch {
      listener.close()
      directory.remove(socketPath)
      ExitCleanup.unregister(socketPath)
      throw StartError(description: "the live thread could not be started (error \(error.code))")
    }
  }

  /// Where the welcome reads the store's last step (the recording session's count).
  func countSteps(with count: @escaping @Sendable () -> Int) {
    capturedSteps.withLock { $0 = count }
  }

  /// Ends serving: the history ends with `reason` (watchers are told it once they have
  /// read what was recorded); returns at once (see `join`).
  func stop(_ reason: String) {
    history.finish(reason)
    inbox.withLock { inbox in
      if inbox.stopReason == nil { inbox.stopReason = reason }
    }
    wake.signal()
  }

  /// Waits until the server's thread is gone (after the recording ended or `stop`).
  func join() {
    thread.withLock { $0 }?.join()
  }

  // MARK: Between threads

  /// Hands an answer to the server's thread (from the main actor).
  func post(_ message: LiveMessage, to connection: Int, status: LiveStatus? = nil) {
    if let status { lastStatus.withLock { $0 = status } }
    inbox.withLock { $0.answers.append((connection, message, status)) }
    wake.signal()
  }

  fileprivate func takeInbox() -> (
    answers: [(connection: Int, message: LiveMessage, status: LiveStatus?)], stop: String?
  ) {
    inbox.withLock { inbox in
      defer { inbox.answers.removeAll() }
      return (inbox.answers, inbox.stopReason)
    }
  }

  fileprivate var wakeChannel: WakeChannel { wake }

  /// How many requests wait for the history to reach a step the store captured: jumps (and
  /// the commands behind them) and watches.
  var requestsWaiting: Int { waitingCount.load(ordering: .relaxed) }

  fileprivate func noteWaiting(_ count: Int) {
    waitingCount.store(count, ordering: .relaxed)
  }

  /// The step a jump to `step` waits for the history to hold: `step`, or the store's last
  /// captured step when it is lower. `ps` and the answer to a send already name a captured
  /// step, which the writer puts in the history a little later; a jump is answered once the
  /// history holds it, so that it can jump there, or says what it holds then.
  fileprivate func stepToWaitFor(jumpingTo step: Int) -> Int {
    min(step, capturedStep)
  }

  /// The store's last step as captured.
  fileprivate var capturedStep: Int {
    capturedSteps.withLock { $0 }?() ?? 0
  }

  /// Whether the history does not hold `step` yet while the recording goes on.
  fileprivate func historyIsShort(of step: Int) -> Bool {
    let summary = history.summary
    return summary.ending == nil && summary.lastStep < step
  }

  fileprivate func welcome() -> LiveWelcome {
    let summary = history.summary
    var status = lastStatus.withLock { $0 }
    status.lastStep = max(status.lastStep, summary.lastStep, capturedStep)
    let metadata = summary.start?.metadata
    return LiveWelcome(
      pid: Int(ProcessFacts.currentID), name: name, rootReducer: metadata?.rootReducer ?? "",
      stateType: metadata?.stateType ?? "", actionType: metadata?.actionType ?? "",
      since: summary.start?.wallTime ?? 0, file: file, firstStep: summary.firstStep,
      lastStep: summary.lastStep, canJump: store.canJump, canSend: store.canSend,
      status: status)
  }
}

/// The server's thread: its listener and connections, touched by no other thread.
private final class LiveServerLoop: @unchecked Sendable {
  unowned let server: LiveServer
  private let listener: UnixSocket
  private var isListening = true
  private var connections: [LiveConnection] = []
  private var nextID = 1
  /// When the recording ended (or `stop` came): the watchers get until the grace is over.
  private var closingSince: ContinuousClock.Instant?
  /// What watchers were last told of pause and jump (held counts alone are not news).
  private var toldStatus: (isPaused: Bool, jumpedTo: Int?) = (false, nil)
  /// Commands held back, in the order they came: a jump to a step the history does not hold
  /// yet, and the commands its connection sent after it.
  private var waiting: [WaitingCommand] = []
  /// The history's last step when `runWaiting` last looked.
  private var waitingSawStep = 0

  private struct WaitingCommand {
    var command: LiveCommand
    var id: Int
    var connection: Int
    /// The step a jump waits for the history to hold (nil: a command behind a jump).
    var step: Int?
    /// When the history last grew while this command waited.
    var since: ContinuousClock.Instant
  }

  init(server: LiveServer, listener: UnixSocket) {
    self.server = server
    self.listener = listener
  }

  func run() {
    var poller = Poller()
    while true {
      let (answers, stop) = server.takeInbox()
      for answer in answers {
        deliver(answer.message, to: answer.connection, status: answer.status)
      }
      if closingSince == nil, let reason = stop ?? server.history.summary.ending {
        beginClosing(reason)
      }
      runWaiting()
      let caughtUp = pumpWatchers()
      let watchesWaiting = connections.count { $0.watch?.isOpened == false }
      server.noteWaiting(waiting.count + watchesWaiting)
      for connection in connections { connection.flush() }
      connections.removeAll { $0.isClosed }
      server.history.setWatched(connections.contains { $0.watch != nil } || !waiting.isEmpty)
      // Wake-ups are re-armed only once a watcher has read all there is: one that waits for
      // its socket is woken by the socket, and the writer then pays no system call per step.
      var moreArrived = false
      if let lowest = caughtUp {
        moreArrived = server.history.clearWake() > lowest
      }
      if !waiting.isEmpty {
        // Re-armed for each step while a command waits; a step that came before the re-arming
        // is seen here.
        _ = server.history.clearWake()
        let summary = server.history.summary
        moreArrived = moreArrived || summary.lastStep != waitingSawStep || summary.ending != nil
      }
      // A watch waiting for the history to hold its step is woken by the next step, and
      // looked at every 50 ms for `LiveServer.historyWait`.
      if watchesWaiting > 0 { _ = server.history.clearWake() }
      if let closingSince {
        if connections.isEmpty || ContinuousClock.now - closingSince > LiveServer.closingGrace {
          break
        }
      }
      poller.add(server.wakeChannel.socket, reading: true, writing: false)
      if isListening { poller.add(listener, reading: true, writing: false) }
      for connection in connections {
        poller.add(
          connection.socket, reading: !connection.isClosing, writing: connection.wantsToWrite)
      }
      let timeout: Int32 =
        moreArrived ? 0 : (closingSince == nil && waiting.isEmpty && watchesWaiting == 0 ? 1_000 : 50)
      for entry in poller.wait(milliseconds: timeout) {
        if entry.socket === server.wakeChannel.socket {
          server.wakeChannel.drain()
        } else if entry.socket === listener {
          acceptAll()
        } else if let connection = connections.first(where: { $0.socket === entry.socket }) {
          if entry.readable || entry.failed { read(connection) }
          if entry.writable { connection.flush() }
        }
      }
    }
    for connection in connections {
      connection.flush()
      connection.close()
    }
    connections.removeAll()
    stopListening()
  }

  // MARK: Connections

  private func acceptAll() {
    while isListening {
      let accepted: UnixSocket?
      do {
        accepted = try listener.accept()
      } catch {
        return
      }
      guard let socket = accepted else { return }
      let connection = LiveConnection(id: nextID, socket: socket)
      nextID += 1
      connections.append(connection)
      let owner = ProcessFacts.userID
      guard let peer = try? socket.peerUserID(), peer == owner else {
        let peer = (try? socket.peerUserID()).map(String.init) ?? "unknown"
        refuse(
          connection, code: "refused",
          "uid \(peer) may not attach to this app: it belongs to uid \(owner)")
        continue
      }
      if connections.count > LiveServer.connectionLimit {
        // Inspectors that hung up since the last poll, or were refused in this burst, still
        // hold a place until their sockets are read: read them now, so that only inspectors
        // that are still there count against the limit.
        for other in connections where other !== connection { read(other) }
        connections.removeAll { $0.isClosed }
      }
      if connections.count > LiveServer.connectionLimit {
        refuse(
          connection, code: "busy",
          "\(LiveServer.connectionLimit) inspectors are attached already; try again later")
      }
    }
  }

  private func refuse(_ connection: LiveConnection, code: String, _ message: String) {
    connection.queue(.error(id: nil, code: code, message: message))
    connection.isClosing = true
    connection.flush()
  }

  private func read(_ connection: LiveConnection) {
    guard !connection.isClosing, connection.receive() else { return }
    while !connection.isClosing {
      let payload: [UInt8]?
      do {
        payload = try connection.reader.next()
      } catch {
        refuse(connection, code: error.code, error.description)
        return
      }
      guard let payload else { return }
      do {
        handle(try LiveMessage(json: payload), from: connection)
      } catch {
        connection.queue(.error(id: nil, code: error.code, message: error.description))
      }
    }
  }

  private func handle(_ message: LiveMessage, from connection: LiveConnection) {
    if case .hello(let version) = message {
      guard !connection.isGreeted else {
        connection.queue(.error(id: nil, code: "hello", message: "hello was already said"))
        return
      }
      guard version == LiveProtocol.version else {
        refuse(
          connection, code: "version",
          "this app speaks live protocol version \(LiveProtocol.version), not \(version)")
        return
      }
      connection.isGreeted = true
      connection.queue(.welcome(server.welcome()))
      return
    }
    guard connection.isGreeted else {
      refuse(connection, code: "hello", "the first message must be hello")
      return
    }
    switch message {
    case .watch(let id, let live):
      guard connection.watch == nil else {
        connection.queue(.error(id: id, code: "watching", message: "already watching"))
        return
      }
      var watch = LiveConnection.Watch(id: id, live: live, holding: server.capturedStep)
      connection.watch = watch
      _ = open(&watch, connection)
    case .command(let id, let command):
      run(command, id: id, for: connection)
    default:
      connection.queue(
        .error(
          id: nil, code: "unexpected",
          message: "an inspector does not send '\(message.type)' messages"))
    }
  }

  /// Prepares a command here, then has the main actor do it; the answer comes back through
  /// the server's inbox. A jump waits while the history does not hold the step yet and the
  /// store captured it, or every step the store captured (`runWaiting`), and so do the
  /// commands its connection sends after it.
  private func run(
    _ command: LiveCommand, id: Int, for connection: LiveConnection, mayWait: Bool = true
  ) {
    guard connection.commandsInFlight < 16 else {
      connection.queue(
        .error(id: id, code: "busy", message: "16 commands of this connection are waiting"))
      return
    }
    if mayWait, let held = heldBack(command, id: id, from: connection) {
      connection.commandsInFlight += 1
      waiting.append(held)
      return
    }
    let prepared: PreparedCommand
    do {
      prepared = try server.store.prepare(command, history: server.history)
    } catch {
      connection.queue(.error(id: id, code: error.code, message: error.message))
      return
    }
    connection.commandsInFlight += 1
    let server = self.server
    let store = server.store
    let target = connection.id
    Task { @MainActor in
      do throws(LiveCommandFailure) {
        let (status, step) = try store.perform(prepared)
        server.post(.ok(id: id, status: status, step: step), to: target, status: status)
      } catch {
        server.post(.error(id: id, code: error.code, message: error.message), to: target)
      }
    }
  }

  /// `command` as a waiting one when it must wait: a jump whose step the history does not
  /// hold yet, or any command behind its connection's waiting jump.
  private func heldBack(_ command: LiveCommand, id: Int, from connection: LiveConnection)
    -> WaitingCommand?
  {
    var step: Int?
    if !waiting.contains(where: { $0.connection == connection.id }) {
      guard case .jump(let target) = command else { return nil }
      let until = server.stepToWaitFor(jumpingTo: target)
      guard server.historyIsShort(of: until) else { return nil }
      step = until
    }
    return WaitingCommand(
      command: command, id: id, connection: connection.id, step: step, since: .now)
  }

  /// Runs the waiting jumps whose step reached the history, and the commands behind them; a
  /// jump also runs (and is refused) when the recording ended or the history stopped growing
  /// for `LiveServer.historyWait`.
  private func runWaiting() {
    guard !waiting.isEmpty else { return }
    let now = ContinuousClock.now
    let lastStep = server.history.summary.lastStep
    let grew = lastStep != waitingSawStep
    waitingSawStep = lastStep
    var blocked: Set<Int> = []
    var kept: [WaitingCommand] = []
    for var entry in waiting {
      guard let connection = connections.first(where: { $0.id == entry.connection }),
        !connection.isClosing
      else { continue }
      if grew { entry.since = now }
      if !blocked.contains(entry.connection), let step = entry.step,
        server.historyIsShort(of: step), now - entry.since < LiveServer.historyWait
      {
        blocked.insert(entry.connection)
      }
      if blocked.contains(entry.connection) {
        kept.append(entry)
        continue
      }
      connection.commandsInFlight -= 1
      run(entry.command, id: entry.id, for: connection, mayWait: false)
    }
    waiting = kept
  }

  private func deliver(_ message: LiveMessage, to id: Int, status: LiveStatus?) {
    if let connection = connections.first(where: { $0.id == id }) {
      connection.commandsInFlight -= 1
      connection.queue(message)
    }
    // Every watcher learns when a command paused, jumped or resumed the store.
    if let status, (status.isPaused, status.jumpedTo) != toldStatus {
      toldStatus = (status.isPaused, status.jumpedTo)
      for connection in connections where connection.watch?.isOpened == true {
        connection.queue(.status(status))
      }
    }
  }

  // MARK: Watching

  /// Sends each watcher what is new, as far as its socket takes it: the output is filled up
  /// to its limit and written, again and again, until the watcher has read all there is or
  /// its socket is full (then the socket wakes the server when it has room). Returns the
  /// lowest position of the watchers that read all there was, nil when none did.
  private func pumpWatchers() -> Int? {
    var caughtUp: Int?
    for connection in connections where connection.watch != nil && !connection.isClosing {
      pumping: while var watch = connection.watch {
        if !connection.hasRoom {
          connection.flush()
          guard connection.hasRoom, !connection.isClosed else { break pumping }
        }
        if !watch.isOpened {
          guard open(&watch, connection) else { break pumping }
        }
        let limit = watch.isHistorySent ? 512 : min(512, max(1, watch.historyEnd - watch.next))
        switch server.history.read(from: watch.next, limit: limit) {
        case .events(let events, let next):
          for event in events {
            if case .step(let record) = event { watch.lastStep = record.step }
            connection.queue(event.message)
          }
          watch.next = next
          if !watch.isHistorySent, next >= watch.historyEnd {
            watch.isHistorySent = true
            connection.queue(.historyEnd(lastStep: watch.lastStep))
            if !watch.live {
              connection.watch = nil
              break pumping
            }
          }
          connection.watch = watch
          if events.isEmpty {
            caughtUp = min(caughtUp ?? next, next)
            break pumping
          }
        case .movedOn(let base, let next):
          if base.step > watch.lastStep + 1 {
            connection.queue(
              .gap(afterStep: watch.lastStep, dropped: base.step - watch.lastStep - 1,
                reason: .client))
          }
          if let record = base.record {
            connection.queue(.keyframe(record, state: base.state))
          }
          watch.lastStep = base.step
          watch.next = next
          watch.historyEnd = max(watch.historyEnd, next)
          connection.watch = watch
        case .ended(let reason):
          if !watch.isHistorySent {
            connection.queue(.historyEnd(lastStep: watch.lastStep))
          }
          connection.queue(.end(reason: reason))
          connection.watch = nil
          connection.isClosing = true
        }
      }
    }
    return caughtUp
  }

  /// Answers a new watch once the recording's start is in the history, and sends the watcher
  /// the start and where its history begins once the history holds every step the store had
  /// captured when the watch began (`holding`), the recording ended, or the history stopped
  /// growing short of it for `LiveServer.historyWait` (a step the recorder dropped is known
  /// only when a later one reaches the history). Without a wait, the answer and the start go
  /// out together, so a client that acts on the answer finds the watch open.
  private func open(_ watch: inout LiveConnection.Watch, _ connection: LiveConnection) -> Bool {
    if !watch.isAnswered {
      guard server.history.opening != nil else { return false }
      connection.queue(.ok(id: watch.id, status: server.welcome().status, step: nil))
      watch.isAnswered = true
    }
    if server.historyIsShort(of: watch.holding) {
      let now = ContinuousClock.now
      let lastStep = server.history.summary.lastStep
      if lastStep != watch.waited.step { watch.waited = (lastStep, now) }
      if now - watch.waited.since < LiveServer.historyWait {
        connection.watch = watch
        return false
      }
    }
    guard let opening = server.history.opening else { return false }
    connection.queue(.start(opening.start))
    if let record = opening.base.record {
      if record.step > 1 {
        connection.queue(.gap(afterStep: 0, dropped: record.step - 1, reason: .history))
      }
      connection.queue(.keyframe(record, state: opening.base.state))
    }
    for effect in opening.runningBefore { connection.queue(.effectStarted(effect)) }
    watch.isOpened = true
    watch.next = opening.firstSequence
    watch.historyEnd = opening.endSequence
    watch.lastStep = opening.base.step
    connection.watch = watch
    return true
  }

  // MARK: Ending

  private func beginClosing(_ reason: String) {
    closingSince = .now
    stopListening()
    for connection in connections where connection.watch == nil {
      connection.queue(.end(reason: reason))
      connection.isClosing = true
    }
  }

  private func stopListening() {
    guard isListening else { return }
    isListening = false
    listener.close()
    server.directory.remove(server.socketPath)
    ExitCleanup.unregister(server.socketPath)
  }
}
