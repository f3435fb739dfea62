/// A command line `rewind-demo` cannot run: printed as one line on stderr, exit status 2.
///
/// ```swift
/// UsageError("unknown command 'lst'").description
/// // "rewind-demo: unknown command 'lst'"
/// ```
struct UsageError: Error, Equatable, CustomStringConvertible {
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { "rewind-demo: \(message)" }
}
