/// Why a case could not run (not why it was slow: slowness is a result, never an error).
///
/// ```swift
/// throw BenchError("inspector info exited with status 2: no such file")
/// // rewind-bench: inspector.info.1m could not run: inspector info exited with status 2: …
/// ```
struct BenchError: Error, CustomStringConvertible {
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { message }
}
