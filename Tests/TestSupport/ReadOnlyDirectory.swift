import Foundation
import XCTest

/// Runs a program with a directory it cannot write to. A user other than root gets a directory
/// without write permission; root, whom permissions do not stop, gets a read-only bind mount of
/// it in a mount namespace of its own (`unshare -m`). Where neither is possible the test is
/// skipped, saying why.
///
/// ```swift
/// let output = try ReadOnlyDirectory.run(inspector, ["info", "t.rewind"], in: directory)
/// ```
package enum ReadOnlyDirectory {
  package static func run(_ executable: String, _ arguments: [String], in directory: URL)
    throws -> BuiltProducts.Output
  {
    if getuid() != 0 {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o555], ofItemAtPath: directory.path)
      defer {
        try? FileManager.default.setAttributes(
          [.posixPermissions: 0o755], ofItemAtPath: directory.path)
      }
      return try BuiltProducts.run(executable, arguments, in: directory)
    }
    let quoted = ([executable] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
    let path = "'" + directory.path + "'"
    let script =
      "mount --bind \(path) \(path) && mount -o remount,bind,ro \(path) || exit 97; "
      + "cd \(path) || exit 97; touch .probe 2>/dev/null && exit 98; exec \(quoted)"
    let output = try BuiltProducts.run(
      "/usr/bin/unshare", ["-m", "sh", "-c", script], in: directory)
    if output.status == 97 || output.status == 98 || output.err.hasPrefix("unshare:") {
      throw XCTSkip("no read-only directory for root here (unshare -m): \(output.err)")
    }
    return output
  }
}
