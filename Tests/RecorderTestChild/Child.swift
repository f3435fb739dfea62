import ComposableCore
import Foundation
import TraceRecorder

#if canImport(Glibc)
  import Glibc
#endif

/// The child process of the recorder's kill and write-error tests.
///
/// ```
/// recorder-test-child kill  PATH   # records forever, printing "sent N" every 200 steps
/// recorder-test-child fill  PATH   # records 20,000 steps with files limited to 256 KiB, then "done …"
/// ```
@main
struct Child {
  static func main() async {
    let arguments = CommandLine.arguments
    guard arguments.count == 3 else {
      FileHandle.standardError.write(Data("usage: recorder-test-child kill|fill PATH\n".utf8))
      exit(2)
    }
    switch arguments[1] {
    case "kill": await recordUntilKilled(path: arguments[2])
    case "fill": await recordIntoAFullDisk(path: arguments[2])
    default:
      FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
      exit(2)
    }
  }

  @MainActor
  static func recordUntilKilled(path: String) async {
    let recorder = makeRecorder(path: path, configuration: .init(keyframeInterval: 64))
    let store = Store(initialState: ChildCounter.State()) {
      ChildCounter().recording(to: recorder)
    }
    var step = 0
    while true {
      step += 1
      store.send(.add(step % 7))
      if step % 200 == 0 {
        line("sent \(step)")
        try? await Task.sleep(for: .milliseconds(2))
      }
    }
  }

  /// 256 KiB: far less than 20,000 steps need.
  static let fileSizeLimit: rlim_t = 256 * 1024

  @MainActor
  static func recordIntoAFullDisk(path: String) async {
    // The limit is set here, not by `ulimit -f` before exec: ThreadSanitizer's runtime writes
    // a 512 KiB file at start-up (/tmp/tsan.rodata.PID) and maps it over the shadow of the
    // read-only data, so a smaller limit inherited at exec leaves it short and the first
    // read of that shadow is a SIGBUS.
    var limit = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
    limit.rlim_cur = fileSizeLimit
    guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else {
      FileHandle.standardError.write(Data("setrlimit(RLIMIT_FSIZE) failed: errno \(errno)\n".utf8))
      exit(2)
    }
    // Past the file size limit the kernel sends SIGXFSZ, which kills by default; ignored,
    // the write fails with EFBIG, as it would on a full disk.
    signal(SIGXFSZ, SIG_IGN)
    IssueReporters.install(LineReporter())
    let recorder = makeRecorder(path: path)
    let store = Store(initialState: ChildCounter.State()) {
      ChildCounter().recording(to: recorder)
    }
    for step in 1...20_000 {
      store.send(.add(step))
      if step % 500 == 0 { await Task.yield() }
    }
    await recorder.waitUntilFinished()
    line("done count=\(store.state.count) stopped=\(recorder.error != nil)")
  }

  static func makeRecorder(
    path: String, configuration: Recorder.Configuration = .init()
  ) -> Recorder {
    do {
      return try Recorder(path: path, configuration: configuration)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(2)
    }
  }

  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}

/// Prints each reported issue as one stdout line.
struct LineReporter: IssueReporter {
  func report(_ issue: ReportedIssue) {
    Child.line("issue: " + issue.message)
  }
}

/// The recorded feature; `Tests/TraceRecorderTests/Support/ChildCounter.swift` has the same
/// shape for replaying what this process recorded.
struct ChildCounter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var last = ""
  }

  enum Action: Codable, Equatable, Sendable {
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      state.count += amount
      state.last = "added \(amount) to reach \(state.count), " + String(repeating: "x", count: 40)
    }
    return .none
  }
}
