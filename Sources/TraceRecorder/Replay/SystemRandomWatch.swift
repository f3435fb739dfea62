import CRandomWatch

/// Runs work on a thread of its own whose calls for system randomness are counted while
/// `counting` is on: the `getrandom` system call (`SystemRandomNumberGenerator`,
/// `Int.random(in:)`, `shuffled()`, `randomElement()` …) and opening `/dev/urandom` or
/// `/dev/random` (Foundation's `UUID()` on Linux). A seccomp filter on that thread alone hands
/// each such call to a second thread that counts it and lets it continue unchanged; both
/// threads have ended when `run` returns.
///
/// Typed replay reduces on such a thread, so a reducer that reads randomness the trace cannot
/// serve back is caught at its step every time, whatever value it drew.
///
/// ```swift
/// let (draws, status) = SystemRandomWatch.run { watch in
///   watch.counting = true
///   _ = Int.random(in: 0..<6)
///   watch.counting = false
///   return watch.use
/// }
/// print(draws)   // getrandom 1
/// print(status)  // watched
/// ```
///
/// Where seccomp is not available (not Linux, or a sandbox that forbids filters) the work still
/// runs on its own thread, nothing is counted, and the status says why.
final class SystemRandomWatch {
  /// Calls for system randomness counted so far.
  struct Use: Equatable, CustomStringConvertible {
    var getrandom: Int = 0
    var deviceOpens: Int = 0

    var isEmpty: Bool { getrandom == 0 && deviceOpens == 0 }

    static func - (lhs: Use, rhs: Use) -> Use {
      Use(getrandom: lhs.getrandom - rhs.getrandom, deviceOpens: lhs.deviceOpens - rhs.deviceOpens)
    }

    var description: String {
      var parts: [String] = []
      if getrandom > 0 { parts.append("getrandom \(getrandom)") }
      if deviceOpens > 0 { parts.append("/dev/urandom \(deviceOpens)") }
      return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
  }

  /// Whether the calls of the work were watched.
  enum Status: Equatable, CustomStringConvertible {
    case watched
    /// Not watched, and why.
    case unwatched(String)

    var description: String {
      switch self {
      case .watched: "watched"
      case .unwatched(let reason): reason
      }
    }
  }

  /// The stack of the work's thread: as large as a main thread's, for deep states.
  static let stackBytes = 16 << 20

  private let watch: OpaquePointer?

  private init(watch: OpaquePointer?) {
    self.watch = watch
  }

  /// Whether calls are counted now (only the work's own thread may set it).
  var counting: Bool = false {
    didSet {
      guard let watch, counting != oldValue else { return }
      rewind_random_watch_set_counting(watch, counting ? 1 : 0)
    }
  }

  /// The calls counted so far.
  var use: Use {
    guard let watch else { return Use() }
    return Use(
      getrandom: Int(rewind_random_watch_getrandom_count(watch)),
      deviceOpens: Int(rewind_random_watch_device_count(watch)))
  }

  /// Runs `work` on a watched thread and returns its result once both threads have ended.
  static func run<Value>(_ work: (SystemRandomWatch) -> Value) -> (Value, Status) {
    withoutActuallyEscaping(work) { work in
      let box = Box(work: work)
      var status = rewind_random_watch_status()
      let started = rewind_random_watch_run(
        { context, watch in
          guard let context else { return }
          let box = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue()
          (box as? any Runnable)?.run(watch)
        },
        Unmanaged.passUnretained(box as AnyObject).toOpaque(), stackBytes, &status)
      if started != 0 || box.result == nil {
        // No thread could be started: run here, unwatched, rather than not at all.
        box.run(nil)
        return (box.result!, .unwatched("no thread could be started (error \(started))"))
      }
      return (box.result!, Self.status(status))
    }
  }

  private static func status(_ status: rewind_random_watch_status) -> Status {
    if status.installed != 0 { return .watched }
    let step = status.failed_step.map { String(cString: $0) } ?? "unsupported"
    switch step {
    case "unsupported":
      return .unwatched("system randomness is watched on Linux only")
    case "no_new_privs", "seccomp":
      return .unwatched(
        "the kernel refused the seccomp filter that watches system randomness "
          + "(error \(status.error))")
    default:
      return .unwatched("the thread that watches system randomness could not start "
        + "(error \(status.error))")
    }
  }

  private protocol Runnable: AnyObject {
    func run(_ watch: OpaquePointer?)
  }

  private final class Box<Value>: Runnable {
    let work: (SystemRandomWatch) -> Value
    var result: Value?

    init(work: @escaping (SystemRandomWatch) -> Value) {
      self.work = work
    }

    func run(_ watch: OpaquePointer?) {
      result = work(SystemRandomWatch(watch: watch))
    }
  }
}
