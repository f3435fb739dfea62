import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes the files registered here when the process exits normally (`exit`, the end of
/// `main`), even if their owner never got to remove them; a killed process leaves them, and
/// the inspector's `ps` recognises and removes those.
///
/// ```swift
/// ExitCleanup.register("/run/user/0/rewind/12.sock")
/// // … the owner removes it and calls ExitCleanup.unregister, or the process exits
/// ```
package enum ExitCleanup {
  private static let paths = Lock<(installed: Bool, paths: Set<String>)>((false, []))

  package static func register(_ path: String) {
    let install = paths.withLock { state -> Bool in
      state.paths.insert(path)
      defer { state.installed = true }
      return !state.installed
    }
    if install {
      atexit { ExitCleanup.removeAll() }
    }
  }

  package static func unregister(_ path: String) {
    _ = paths.withLock { $0.paths.remove(path) }
  }

  private static func removeAll() {
    let all = paths.withLock { state in
      defer { state.paths.removeAll() }
      return state.paths
    }
    for path in all { unlink(path) }
  }
}
