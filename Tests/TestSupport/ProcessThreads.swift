import Foundation

/// The threads of this process, as `/proc/self/task` lists them (Linux).
///
/// ```swift
/// ProcessThreads.named("rewind-writer")  // 0 when no recording is running
/// ```
public enum ProcessThreads {
  /// How many threads of this process have the name `name` (`/proc/self/task/*/comm`).
  public static func named(_ name: String) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.count { task in
      let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
      return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
    }
  }

  /// How many threads this process has.
  public static var count: Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count ?? 0
  }
}
