import Foundation
import LiveAttach
import Locking
import TraceKit

/// A running app as a trace source for `inspector open --attach`: a thread writes what the
/// app sends into a temporary trace (`LiveTraceMirror`) and the view reads that trace as one
/// still being written; a second connection carries the view's pause, jump, resume and
/// continue. The temporary trace is removed when the source closes.
///
/// ```swift
/// let source = try LiveTraceSource.attach("rewind-demo", location: location,
///                                         interruption: .none)
/// try source.summary().stepCount   // what the app held, growing
/// source.pause()                   // "paused after step 57; paused"
/// ```
package final class LiveTraceSource: TraceSource, LiveSteering {
  package let path: String
  private let file: TraceFileSource
  private let feed: LiveFeed
  private let commands: LiveClient
  private let directory: URL
  private let app: LiveApps.App

  private init(
    file: TraceFileSource, feed: LiveFeed, commands: LiveClient, directory: URL,
    app: LiveApps.App
  ) {
    self.file = file
    self.feed = feed
    self.commands = commands
    self.directory = directory
    self.app = app
    path = "\(app.welcome.name), pid \(app.welcome.pid)"
  }

  deinit {
    close()
  }

  /// Connects to the app named `target`, receives its start and opens the view's trace.
  package static func attach(
    _ target: String, location: String, interruption: Interruption
  ) throws(InspectorError) -> LiveTraceSource {
    let app: LiveApps.App
    do {
      app = try LiveApps.find(target, in: location)
    } catch {
      throw .input(error.description, where: "open --attach")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-attach-\(getpid())-\(UInt32.random(in: .min ... .max))")
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .input("cannot make a temporary directory: \(error)", where: directory.path)
    }
    let tracePath = directory.appendingPathComponent("attached.rewind").path
    do throws(InspectorError) {
      let watcher: LiveClient
      let commands: LiveClient
      do {
        watcher = try LiveClient(socketPath: app.socketPath)
        commands = try LiveClient(socketPath: app.socketPath)
        try watcher.watch(live: true)
      } catch {
        throw InspectorError(
          error.isRefusal ? .checkFailed : .input, error.description, where: "open --attach")
      }
      let mirror = LiveTraceMirror(path: tracePath)
      // The view opens the trace once step 0 is in it.
      while !mirror.hasStarted {
        let message: LiveMessage?
        do {
          message = try watcher.receive(timeout: .seconds(10))
        } catch {
          throw .input(error.description, where: "open --attach")
        }
        guard let message else {
          throw .input("the app sent no history within 10 s", where: "open --attach")
        }
        try mirror.apply(message)
      }
      try mirror.flush()
      let file = try TraceFileSource(path: tracePath)
      let feed = LiveFeed(client: watcher, mirror: mirror)
      return LiveTraceSource(
        file: file, feed: feed, commands: commands, directory: directory, app: app)
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
  }

  /// Stops following and removes the temporary trace.
  package func close() {
    feed.stop()
    commands.close()
    try? FileManager.default.removeItem(at: directory)
  }

  // MARK: Steering

  package func pause() -> String { steer(.pause) }
  package func jump(to step: Int) -> String { steer(.jump(step: step)) }
  package func resume() -> String { steer(.resume) }
  package func continueFromHere() -> String { steer(.continueFromHere) }

  private func steer(_ command: LiveCommand) -> String {
    do {
      let answer = try commands.run(command, timeout: .seconds(5))
      feed.status = answer.status
      return ControlCommand.line(command, answer.step, answer.status)
    } catch {
      return error.description
    }
  }

  // MARK: TraceSource

  package func writerState() -> WriterState {
    if let ending = feed.ending { return .attached(ending) }
    guard let status = feed.status else { return .attached("attached") }
    var text = "attached: "
    if let jumped = status.jumpedTo {
      text += "at step \(jumped), paused"
    } else {
      text += status.isPaused ? "paused" : "running"
    }
    if status.heldActions > 0 { text += ", \(status.heldActions) held" }
    return .attached(text)
  }

  package func summary() throws(InspectorError) -> TraceSummary { try file.summary() }

  package func forEachStep(
    from: Int, to: Int, _ body: (StepRow) throws(InspectorError) -> Bool
  ) throws(InspectorError) {
    try file.forEachStep(from: from, to: to, body)
  }

  package func forEachStepContent(
    from: Int, to: Int, _ body: (StepRow, StepContent) throws(InspectorError) -> Bool
  ) throws(InspectorError) {
    try file.forEachStepContent(from: from, to: to, body)
  }

  package func action(at step: Int) throws(InspectorError) -> TraceValue {
    try file.action(at: step)
  }

  package func changes(at step: Int) throws(InspectorError) -> [TraceChange] {
    try file.changes(at: step)
  }

  package func state(at step: Int) throws(InspectorError) -> TraceValue {
    try file.state(at: step)
  }

  package func keyframe(at step: Int) throws(InspectorError) -> TraceValue? {
    try file.keyframe(at: step)
  }

  package func effects() throws(InspectorError) -> [EffectRecord] { try file.effects() }

  package func tree() throws(InspectorError) -> ReducerTreeNode? { try file.tree() }

  package func refresh() throws(InspectorError) { try file.refresh() }

  package func rows(
    matching filter: StepFilter, limit: Int, descending: Bool
  ) throws(InspectorError) -> [StepRow] {
    try file.rows(matching: filter, limit: limit, descending: descending)
  }

  package func count(matching filter: StepFilter) throws(InspectorError) -> Int {
    try file.count(matching: filter)
  }

  package func actionPaths() throws(InspectorError) -> [String] { try file.actionPaths() }

  package func actionCounts(from: Int, to: Int) throws(InspectorError) -> [String: Int] {
    try file.actionCounts(from: from, to: to)
  }

  package func effects(startedBy step: Int) throws(InspectorError) -> [EffectRecord] {
    try file.effects(startedBy: step)
  }

  package func effect(id: UUID) throws(InspectorError) -> EffectRecord? {
    try file.effect(id: id)
  }
}

/// The thread that writes what a watched app sends into the view's trace, committing at
/// least every 50 ms, and asks for the app's status every second.
final class LiveFeed: @unchecked Sendable {
  private let state = Lock<(status: LiveStatus?, ending: String?, stopped: Bool)>(
    (nil, nil, false))
  private let done = DispatchSemaphore(value: 0)

  /// The app's status as last heard.
  var status: LiveStatus? {
    get { state.withLock { $0.status } }
    set { state.withLock { $0.status = newValue } }
  }

  /// How the app ended, once it did.
  var ending: String? { state.withLock { $0.ending } }

  // Unchecked: `client` and `mirror` are used by the feed's thread only.
  init(client: LiveClient, mirror: LiveTraceMirror) {
    nonisolated(unsafe) let client = client
    nonisolated(unsafe) let mirror = mirror
    let thread = Thread { [self] in
      run(client, mirror)
      done.signal()
    }
    thread.name = "rewind-attach"
    thread.start()
  }

  func stop() {
    let wasStopped = state.withLock { state in
      defer { state.stopped = true }
      return state.stopped
    }
    if !wasStopped { done.wait() }
  }

  private var isStopped: Bool { state.withLock { $0.stopped } }

  private func run(_ client: LiveClient, _ mirror: LiveTraceMirror) {
    var lastFlush = ContinuousClock.now
    var lastAsked = ContinuousClock.now - .seconds(1)
    var ending: String?
    while !isStopped, ending == nil {
      if ContinuousClock.now - lastAsked >= .seconds(1) {
        lastAsked = .now
        try? client.send(.command(id: Int(Int32.max), .status), timeout: .milliseconds(200))
      }
      do {
        if let message = try client.receive(timeout: .milliseconds(50)) {
          switch message {
          case .ok(_, let status, _), .status(let status): self.status = status
          case .end(let reason): ending = reason == "finished" ? "app ended" : reason
          default: try mirror.apply(message)
          }
          if ContinuousClock.now - lastFlush < .milliseconds(50) { continue }
        }
        try mirror.flush()
        lastFlush = .now
      } catch {
        ending = "app gone"
      }
    }
    try? mirror.close()
    state.withLock { $0.ending = $0.ending ?? ending }
    client.close()
  }
}
