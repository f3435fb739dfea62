import Foundation

/// This process's I/O counters from `/proc/self/io` (Linux), summed over all its threads.
///
/// ```swift
/// let before = try ProcessIO.read()
/// // … write a trace …
/// let written = try ProcessIO.read().diskBytes - before.diskBytes
/// ```
struct ProcessIO {
  /// Bytes handed to `write`-family system calls (`wchar`), to any file or pipe.
  var handedToKernel: Int64
  /// Bytes of page cache this process dirtied (`write_bytes`): what will reach the disk. A
  /// page written again before it was written back counts once.
  var dirtied: Int64
  /// Dirtied bytes that will never reach the disk after all (`cancelled_write_bytes`: a file
  /// truncated or deleted while its pages were still dirty).
  var cancelled: Int64

  /// The bytes that reach (or will reach) the disk.
  var diskBytes: Int64 { dirtied - cancelled }

  static func read() throws(BenchError) -> ProcessIO {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else {
      throw BenchError("cannot read /proc/self/io (Linux with task I/O accounting needed)")
    }
    var values: [String: Int64] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      values[String(parts[0])] = Int64(parts[1].trimmingCharacters(in: .whitespaces))
    }
    guard let wchar = values["wchar"], let dirtied = values["write_bytes"],
      let cancelled = values["cancelled_write_bytes"]
    else {
      throw BenchError("/proc/self/io lacks wchar, write_bytes or cancelled_write_bytes")
    }
    return ProcessIO(handedToKernel: wchar, dirtied: dirtied, cancelled: cancelled)
  }
}
