import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Tells whether another process has a WAL-mode SQLite database open, without opening any
/// file: every SQLite connection holds a shared POSIX lock on byte 128 of the database's
/// `-shm` file (the "dead man switch" of the unix VFS, part of its on-disk locking protocol)
/// for as long as it is open, and the kernel lists every lock in `/proc/locks`. The lock
/// goes with its process, so a writer that was killed holds none.
///
/// ```swift
/// WriterProbe.othersHoldSharedMemory(of: "live.rewind")  // true while a recorder writes it
/// ```
///
/// Opening and closing the `-shm` file to ask `fcntl` instead would drop this process's own
/// SQLite locks on it (POSIX locks belong to the process, and any close releases them all).
enum WriterProbe {
  /// True when a process other than this one holds the lock, false when none does, nil when
  /// it cannot be known (no `/proc/locks`, no `-shm` file: the database is not in WAL use).
  static func othersHoldSharedMemory(of path: String) -> Bool? {
    #if os(Linux)
      var info = stat()
      guard stat(path + "-shm", &info) == 0,
        let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
      else { return nil }
      let device = UInt64(info.st_dev)
      let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
      let minor = (device & 0xff) | ((device >> 12) & ~0xff)
      // The kernel writes `%02x:%02x:%lu`.
      func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
      }
      let file = hex(major) + ":" + hex(minor) + ":" + String(info.st_ino)
      let me = getpid()
      for line in locks.split(separator: "\n") {
        if holds(line, file: file, excluding: me) { return true }
      }
      return false
    #else
      return nil
    #endif
  }

  /// Whether a `/proc/locks` line is a POSIX lock of another process covering byte 128 of
  /// `file` (`major:minor:inode`, hexadecimal device numbers as the kernel writes them):
  /// `3: POSIX  ADVISORY  READ 31942 fe:00:16269806 128 128`.
  static func holds(_ line: Substring, file: String, excluding me: Int32) -> Bool {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    // A waiting lock is listed as `3: -> POSIX …`: it holds nothing yet.
    guard fields.count >= 8, fields[1] == "POSIX", let pid = Int32(fields[4]), pid != me,
      fields[5].lowercased() == file.lowercased(), let start = Int(fields[6])
    else { return false }
    let end = fields[7] == "EOF" ? Int.max : Int(fields[7]) ?? -1
    return start <= 128 && 128 <= end
  }
}
