import ComposableCore
import Foundation
import LiveAttach
import TraceKit

/// The live part of one recording: the history the writer fills and the server that shows it
/// to inspectors. A recording whose socket cannot be made keeps recording and says once why
/// nobody can attach.
///
/// ```swift
/// let live = LiveSession(configuration: .init(), file: path, store: bridge)
/// live.history.append(record) { state }   // the writer
/// live.finish("finished")                  // watchers are told; the socket is removed
/// live.join()
/// ```
final class LiveSession: Sendable {
  let history: LiveHistory
  let server: LiveServer?

  init(configuration: Recorder.Live, file: String?, store: any LiveStoreHandle) {
    history = LiveHistory(
      steps: configuration.historySteps,
      bytes: configuration.historyMegabytes << 20)
    let location =
      configuration.directory
      ?? LiveDirectory.location(environment: ProcessInfo.processInfo.environment)
    do throws(LiveServer.StartError) {
      let directory: LiveDirectory
      do {
        directory = try LiveDirectory.prepare(at: location)
      } catch {
        throw LiveServer.StartError(description: error.description)
      }
      server = try LiveServer(
        directory: directory, name: configuration.name ?? ProcessFacts.name, file: file,
        history: history, store: store)
    } catch {
      reportIssue(
        "Live attach is off: \(error.description). The recording goes on; no inspector can "
          + "attach to it.")
      server = nil
    }
  }

  /// Where the server reads the store's last step.
  func countSteps(with count: @escaping @Sendable () -> Int) {
    server?.countSteps(with: count)
  }

  /// The recording ended (`finished`) or stopped (why): the server tells its watchers, stops
  /// listening and removes its socket.
  func finish(_ reason: String) {
    history.finish(reason)
    server?.stop(reason)
  }

  /// Waits until the server's thread is gone (after `finish`).
  func join() {
    server?.join()
  }
}
