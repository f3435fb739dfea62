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

  /// The ids of this process's threads named `name`.
  public static func ids(named name: String) -> Set<String> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(tasks.filter { self.name(of: $0) == name })
  }

  /// The id of the calling thread (`/proc/thread-self` names it).
  public static var currentID: String {
    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
    return link.map { ($0 as NSString).lastPathComponent } ?? ""
  }

  /// The name of thread `id` of this process (nil: not listed).
  public static func name(of id: String) -> String? {
    let comm = try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)
    return comm?.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The nice value of thread `id` of this process (`/proc/self/task/ID/stat`, field 19; nil:
  /// not listed). Linux keeps it per thread.
  public static func nice(of id: String) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return nil }
    // The fields after the name, which may hold spaces, start with field 3 (the state).
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    return fields.count > 16 ? Int(fields[16]) : nil
  }

  /// Whether the kernel still lists thread `id` of this process. For a moment after a join
  /// returns, it still lists the thread that ended.
  public static func isListed(_ id: String) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
  }
}
