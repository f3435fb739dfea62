import Foundation
import Glibc

/// A program run on a pseudo-terminal of a given size, as a person's terminal runs it: keys
/// are written to it, the screen's bytes are read back with the time each read returned.
/// `inspector open` draws with ncurses, which sends each frame in one burst; a burst ends
/// when the terminal has been quiet for a few milliseconds.
///
/// ```swift
/// let terminal = try PseudoTerminal(inspector, ["open", trace], width: 120, height: 40)
/// _ = try terminal.read(until: "q quit", timeout: 10)  // the first frame is on screen
/// let sent = terminal.send("j")
/// let drawn = try terminal.burst(quiet: 5_000_000, wait: 1_000_000_000)  // last byte's time
/// ```
final class PseudoTerminal {
  let pid: pid_t
  private let master: Int32
  private var exited = false
  private let errorPath: String

  init(
    _ path: String, _ arguments: [String], width: Int, height: Int,
    environment: [String: String]
  ) throws(BenchError) {
    master = LibC.posixOpenpt(O_RDWR | O_NOCTTY)
    guard master >= 0, LibC.grantpt(master) == 0, LibC.unlockpt(master) == 0,
      let name = LibC.ptsname(master)
    else {
      throw BenchError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    let slave = String(cString: name)
    var size = winsize(
      ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    errorPath = NSTemporaryDirectory() + "rewind-bench-pty-\(getpid())-\(UUID().uuidString)"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addclose(&actions, master)
    let argv = ([path] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") }
    defer { envp.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = (argv + [nil]).withUnsafeBufferPointer { arguments in
      (envp + [nil]).withUnsafeBufferPointer { environment in
        posix_spawn(
          &child, path, &actions, nil, arguments.baseAddress!, environment.baseAddress!)
      }
    }
    guard spawned == 0 else {
      close(master)
      throw BenchError("cannot start \(path): \(String(cString: strerror(spawned)))")
    }
    pid = child
  }

  deinit {
    if !exited {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
    unlink(errorPath)
  }

  /// Writes the bytes of a key; returns the time just before the write.
  @discardableResult
  func send(_ text: String) -> UInt64 {
    let start = Stopwatch.now()
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        break
      }
      offset += written
    }
    return start
  }

  /// Reads until the output since the call holds `marker`; returns the time of the read that
  /// brought it.
  func read(until marker: String, timeout seconds: Double) throws(BenchError) -> UInt64 {
    let wanted = Array(marker.utf8)
    var seen: [UInt8] = []
    let deadline = Stopwatch.now() + UInt64(seconds * 1e9)
    while Stopwatch.now() < deadline {
      let (bytes, at) = try readAvailable(waitingUpTo: 50)
      seen += bytes
      if !bytes.isEmpty, seen.count >= wanted.count,
        Self.contains(seen.suffix(bytes.count + wanted.count), wanted)
      {
        return at
      }
    }
    throw BenchError("no '\(marker)' on the terminal within \(seconds) s\(stderrText())")
  }

  /// Reads one burst of output: waits up to `wait` ns for its first byte, then reads until
  /// nothing came for `quiet` ns. Returns the time of the burst's last read, nil when nothing
  /// came.
  func burst(quiet: UInt64, wait: UInt64) throws(BenchError) -> UInt64? {
    let start = Stopwatch.now()
    var last: UInt64?
    while true {
      let now = Stopwatch.now()
      let limit = last.map { $0 + quiet } ?? (start + wait)
      guard now < limit else { return last }
      let (bytes, at) = try readAvailable(waitingUpTo: Int32(max(1, (limit - now) / 1_000_000)))
      if !bytes.isEmpty { last = at }
    }
  }

  /// Reads until the program has drawn nothing for `quiet` ns (its idle work is done).
  func settle(quiet: UInt64) throws(BenchError) {
    while try burst(quiet: quiet, wait: quiet) != nil {}
  }

  /// The program's peak resident memory so far (`VmHWM`), in bytes.
  func peakMemory() throws(BenchError) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      throw BenchError("cannot read /proc/\(pid)/status")
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if parts.count >= 3, let kilobytes = Int(parts[1]) { return kilobytes * 1024 }
    }
    throw BenchError("/proc/\(pid)/status has no VmHWM line")
  }

  /// Sends `q` and waits for the program to exit; returns its status.
  func quit() throws(BenchError) -> Int32 {
    send("q")
    let deadline = Stopwatch.now() + 10_000_000_000
    var status: Int32 = 0
    while Stopwatch.now() < deadline {
      _ = try? readAvailable(waitingUpTo: 20)
      let done = waitpid(pid, &status, WNOHANG)
      if done == pid {
        exited = true
        return (status >> 8) & 0xff
      }
    }
    throw BenchError("the program did not quit within 10 s")
  }

  private func readAvailable(waitingUpTo milliseconds: Int32) throws(BenchError)
    -> ([UInt8], UInt64)
  {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, milliseconds)
    guard ready > 0 else { return ([], Stopwatch.now()) }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
    let at = Stopwatch.now()
    if count < 0, errno != EAGAIN, errno != EINTR {
      throw BenchError("the terminal closed: the program ended\(stderrText())")
    }
    return (count > 0 ? Array(buffer[0..<count]) : [], at)
  }

  private func stderrText() -> String {
    let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    return text.isEmpty ? "" : ": " + text.trimmingCharacters(in: .newlines)
  }

  private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    var index = haystack.startIndex
    while index + needle.count <= haystack.endIndex {
      if haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
      index += 1
    }
    return false
  }
}

/// The pseudo-terminal functions of the C library, which Swift's Glibc module leaves out
/// (they are X/Open extensions): found by name once.
private enum LibC {
  static let posixOpenpt = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
  static let grantpt = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
  static let unlockpt = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
  static let ptsname = function(
    "ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

  private static func function<T>(_ name: String, as type: T.Type) -> T {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
      fatalError("the C library has no \(name)")
    }
    return unsafeBitCast(symbol, to: type)
  }
}
