import Foundation

/// Sizes of trace files on disk.
enum TraceFile {
  /// The bytes a trace occupies: the database file plus its WAL, if one is left.
  static func size(_ path: String) throws(BenchError) -> Int {
    var total = 0
    for suffix in ["", "-wal"] {
      var info = stat()
      if stat(path + suffix, &info) == 0 {
        total += Int(info.st_size)
      } else if suffix.isEmpty {
        throw BenchError("no trace file at \(path)")
      }
    }
    return total
  }

  /// Deletes a trace and the WAL and shared-memory files SQLite may have left beside it.
  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
  }
}
