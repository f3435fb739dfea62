import Foundation
import TestSupport
import XCTest

/// A real terminal for end-to-end tests: a private tmux server (its own socket, no user
/// configuration) with one window of a given size running a shell command. Keys go in with
/// `send-keys`, the screen comes out with `capture-pane`, and every wait is for something on
/// the screen (the timeout only bounds a failure), never for a length of time.
///
/// ```swift
/// let tmux = try TmuxSession("inspector open t.rewind", in: directory.url)
/// try tmux.waitFor { $0.contains { $0.hasPrefix(" Steps") } }
/// try tmux.keys("j", "q")
/// ```
///
/// The window stays after its command exits (`remain-on-exit`), so a test can read what the
/// terminal looks like afterwards.
final class TmuxSession {
  let socket: String
  let directory: URL
  static let target = "open"
  /// The server's process, ended by its id should `kill-server` find no socket.
  private var serverProcess: pid_t = 0

  init(
    _ command: String, width: Int = 120, height: Int = 40, in directory: URL
  ) throws {
    self.directory = directory
    socket = directory.appendingPathComponent("tmux.socket").path
    try run(
      [
        "-f", "/dev/null", "new-session", "-d", "-s", Self.target, "-c", directory.path, "-x",
        String(width), "-y", String(height), "sh", "-c", command,
      ])
    try run(["set-option", "-t", Self.target, "remain-on-exit", "on"])
    serverProcess = pid_t(try display("#{pid}")) ?? 0
  }

  deinit {
    if (try? run(["kill-server"])) == nil, serverProcess > 0 {
      kill(serverProcess, SIGTERM)
    }
  }

  static var executable: String {
    get throws {
      for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = directory + "/tmux"
        if FileManager.default.isExecutableFile(atPath: String(path)) { return String(path) }
      }
      throw XCTSkip("tmux is not installed: tools/setup installs it")
    }
  }

  /// Runs a tmux client and returns what it printed. Spawned and reaped directly (Foundation's
  /// `Process` did not notice the exit of the client that started the tmux server, which
  /// daemonizes, and waited forever); output goes through files, not pipes, since the server
  /// keeps its first client's descriptors open.
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let outPath = directory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
    let errPath = outPath + ".err"
    defer {
      unlink(outPath)
      unlink(errPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([try Self.executable, "-S", socket] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    // The server takes the first client's environment, and every pane the server's: as for
    // `BuiltProducts`, what the test runner set for colour and width stays out.
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    environment["COLUMNS"] = nil
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer in
      (envp + [nil]).withUnsafeBufferPointer { environment in
        posix_spawn(&pid, buffer[0]!, &actions, nil, buffer.baseAddress!, environment.baseAddress!)
      }
    }
    guard spawned == 0 else { throw Failure(description: "cannot start tmux: \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw Failure(description: "waitpid: \(errno)") }
    }
    let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
      throw Failure(description: "tmux \(arguments.joined(separator: " ")): \(err)")
    }
    return out
  }

  /// Sends keys as tmux names them (`j`, `Enter`, `C-c`, `PageDown`).
  func keys(_ keys: String...) throws {
    try run(["send-keys", "-t", Self.target] + keys)
  }

  /// Types text literally.
  func type(_ text: String) throws {
    try run(["send-keys", "-t", Self.target, "-l", text])
  }

  /// The screen's lines (one per row), trailing blanks removed.
  func capture() throws -> [String] {
    var text = try run(["capture-pane", "-p", "-t", Self.target])
    if text.hasSuffix("\n") { text.removeLast() }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map {
      var line = String($0)
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// The screen with its colours and attributes as escape sequences (`capture-pane -e`).
  func captureWithAttributes() throws -> String {
    try run(["capture-pane", "-p", "-e", "-t", Self.target])
  }

  /// A tmux format about the pane (`#{alternate_on}`, `#{pane_dead_status}`).
  func display(_ format: String) throws -> String {
    try run(["display-message", "-p", "-t", Self.target, format])
      .trimmingCharacters(in: .newlines)
  }

  func resize(width: Int, height: Int) throws {
    try run(["resize-window", "-t", Self.target, "-x", String(width), "-y", String(height)])
  }

  /// Waits until the screen satisfies `predicate`; returns it.
  @discardableResult
  func waitFor(
    timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line,
    _ predicate: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var screen: [String] = []
    while Date() < deadline {
      screen = try capture()
      if predicate(screen) { return screen }
      usleep(20_000)
    }
    throw Failure(
      description: "the screen never became what was expected; last:\n"
        + screen.joined(separator: "\n"))
  }

  /// The process the pane's shell runs in the foreground (its only child).
  func childProcess() throws -> Int32 {
    let shell = try display("#{pane_pid}")
    let children = try String(
      contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    guard let first = children.split(separator: " ").first, let pid = Int32(first) else {
      throw Failure(description: "the pane's shell \(shell) has no child")
    }
    return pid
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }
}
