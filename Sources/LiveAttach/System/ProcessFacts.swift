import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the live server and the inspector need to know about processes and users.
///
/// ```swift
/// ProcessFacts.currentID       // 4242
/// ProcessFacts.isRunning(1)    // true
/// ```
package enum ProcessFacts {
  /// This process's id.
  package static var currentID: Int32 { getpid() }

  /// The effective user id of this process: whom its sockets belong to.
  package static var userID: UInt32 { geteuid() }

  /// The name of this process (its executable's file name).
  package static var name: String {
    let path = CommandLine.arguments.first ?? "app"
    return URL(fileURLWithPath: path).lastPathComponent
  }

  /// Whether a process with this id exists (it may belong to another user).
  package static func isRunning(_ id: Int32) -> Bool {
    guard id > 0 else { return false }
    return kill(id, 0) == 0 || errno == EPERM
  }
}
