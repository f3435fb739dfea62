import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts system threads named from inside. A Foundation `Thread` on Linux passes its name to
/// the kernel only when its start wins a race with `start()`, so it often keeps none; and
/// Glibc does not import `pthread_setname_np`, so the name is set through Foundation on the
/// new thread itself.
///
/// ```swift
/// let thread = try NamedThread.start(name: "rewind-hashing") { print("hashing") }
/// pthread_join(thread, nil)  // prints "hashing"
/// ```
package enum NamedThread {
  /// Why no thread could be started: `pthread_create`'s error number.
  package struct StartError: Error {
    package var code: Int32
  }

  /// Starts `body` on a new joinable thread named `name` (at most 15 bytes, the most Linux
  /// keeps), with a stack of `stackBytes` when given. The name is set before `body` runs.
  package static func start(
    name: String, stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void
  ) throws(StartError) -> pthread_t {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
    let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let code = pthread_create(
      &thread, &attributes,
      { context in
        guard let context else { return nil }
        let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
        Thread.current.name = start.name
        start.body()
        return nil
      }, context)
    guard code == 0 else {
      Unmanaged<Start>.fromOpaque(context).release()
      throw StartError(code: code)
    }
    #if canImport(Glibc)
      return thread
    #else
      return thread!
    #endif
  }

  /// What a new thread runs, under which name.
  private final class Start: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }
}
