import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The per-user directory where running apps listen for an inspector:
/// `$XDG_RUNTIME_DIR/rewind`, else `rewind-<uid>` in the temporary directory (`$TMPDIR`, else
/// `/tmp`). It is the user's alone: a directory (not a link), owned by the user, mode 0700.
/// Each app's socket is `<pid>.sock`, mode 0600.
///
/// ```swift
/// let directory = try LiveDirectory.prepare(environment: ProcessInfo.processInfo.environment)
/// directory.path                   // "/run/user/1000/rewind"
/// directory.socketPath(pid: 4242)  // "/run/user/1000/rewind/4242.sock"
/// ```
package struct LiveDirectory: Sendable, Hashable {
  package let path: String

  package init(path: String) {
    self.path = path
  }

  /// Where the directory is for this environment (nothing is created or checked).
  package static func location(environment: [String: String]) -> String {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return trimmed(runtime) + "/rewind"
    }
    var temporary = environment["TMPDIR"] ?? "/tmp"
    if !temporary.hasPrefix("/") { temporary = "/tmp" }
    return trimmed(temporary) + "/rewind-\(ProcessFacts.userID)"
  }

  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path == "/" ? "" : path
  }

  /// The directory of an app that listens: created if missing (0700), and checked to be this
  /// user's alone; a directory of this user with a wider mode is narrowed to 0700.
  ///
  /// - Throws: `LiveDirectoryError` when it cannot be created, is not a directory, or belongs
  ///   to another user (nothing is ever listened on there).
  package static func prepare(at path: String) throws(LiveDirectoryError) -> LiveDirectory {
    if mkdir(path, 0o700) != 0, errno != EEXIST {
      throw .system(SystemError.last("mkdir", path: path))
    }
    try check(path, narrowing: true)
    return LiveDirectory(path: path)
  }

  /// The directory of this user's apps for the inspector, checked as `prepare` checks it;
  /// nil when it does not exist (no app has listened yet).
  package static func existing(at path: String) throws(LiveDirectoryError) -> LiveDirectory? {
    var info = stat()
    if lstat(path, &info) != 0 {
      if errno == ENOENT { return nil }
      throw .system(SystemError.last("stat", path: path))
    }
    try check(path, narrowing: false)
    return LiveDirectory(path: path)
  }

  private static func check(_ path: String, narrowing: Bool) throws(LiveDirectoryError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw .system(SystemError.last("stat", path: path)) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path) }
    guard info.st_uid == ProcessFacts.userID else {
      throw .foreignOwner(path, owner: info.st_uid)
    }
    guard info.st_mode & 0o077 != 0 else { return }
    guard narrowing, chmod(path, 0o700) == 0 else {
      throw .open(path, mode: info.st_mode & 0o777)
    }
  }

  /// The socket of the app with this process id.
  package func socketPath(pid: Int32) -> String {
    path + "/\(pid).sock"
  }

  /// The path an app binds before it renames its socket into place (so that a socket found
  /// under its final name is always listening, or stale).
  package func temporarySocketPath(pid: Int32) -> String {
    path + "/.\(pid).tmp"
  }

  /// The app sockets in the directory, by process id.
  package func sockets() throws(LiveDirectoryError) -> [(pid: Int32, path: String)] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw .system(SystemError(operation: "read directory", path: path, code: EACCES))
    }
    return names.compactMap { name -> (pid: Int32, path: String)? in
      guard name.hasSuffix(".sock"), let pid = Int32(name.dropLast(5)), pid > 0 else {
        return nil
      }
      return (pid, path + "/" + name)
    }
    .sorted { $0.pid < $1.pid }
  }

  /// Makes a socket file private (0600) and moves it to its final name.
  package func publish(_ temporary: String, as final: String) throws(SystemError) {
    guard chmod(temporary, 0o600) == 0 else { throw SystemError.last("chmod", path: temporary) }
    guard rename(temporary, final) == 0 else { throw SystemError.last("rename", path: final) }
  }

  /// Removes a socket file; a file already gone is not an error.
  package func remove(_ socketPath: String) {
    _ = unlink(socketPath)
  }

  /// The mode bits of a file (for tests and checks), or nil when it cannot be read.
  package static func mode(of path: String) -> UInt32? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode & 0o7777)
  }
}

/// Why the live directory cannot be used.
package enum LiveDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
  case system(SystemError)
  case notADirectory(String)
  case foreignOwner(String, owner: UInt32)
  case open(String, mode: UInt32)

  package var description: String {
    switch self {
    case .system(let error): error.description
    case .notADirectory(let path): "\(path) is not a directory"
    case .foreignOwner(let path, let owner):
      "\(path) belongs to uid \(owner), not to uid \(ProcessFacts.userID)"
    case .open(let path, let mode):
      "\(path) has mode \(String(mode, radix: 8)); it must be 700"
    }
  }
}
