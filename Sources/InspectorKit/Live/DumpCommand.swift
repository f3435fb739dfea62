import Foundation
import LiveAttach

/// `inspector dump APP --out FILE`: the history the app holds in memory, written as a trace.
///
/// The app's recorder hands a step to its history a few milliseconds after the step: the dump
/// asks the app for its last step first, and goes on reading past the history until it has
/// that step (or, when the recorder dropped it, for at most two seconds more).
///
/// ```text
/// $ inspector dump rewind-demo --out session.rewind
/// wrote session.rewind: steps 0…57
/// ```
enum DumpCommand {
  static func run(_ context: LiveContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    guard let path = context.arguments.value("--out") else {
      throw .usage("missing option --out FILE", where: "dump")
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw .input("a file already exists at this path", where: path)
    }
    let app = try context.app()
    let client = try context.connect(app)
    defer { client.close() }
    let mirror = LiveTraceMirror(path: path)
    do {
      let present = try client.run(.status).status.lastStep
      try client.watch(live: true)
      var historyEnded: ContinuousClock.Instant?
      reading: while mirror.lastStep < present {
        if let historyEnded, ContinuousClock.now - historyEnded > .seconds(2) { break }
        guard let message = try client.receive(timeout: .seconds(30)) else {
          throw LiveClientError.timeout(seconds: 30)
        }
        switch message {
        case .historyEnd: historyEnded = .now
        case .end: break reading
        default: try mirror.apply(message)
        }
      }
    } catch let error as LiveClientError {
      throw context.failure(error, app)
    } catch let error as InspectorError {
      throw error
    } catch {
      throw .input("\(error)", where: path)
    }
    try mirror.close()
    let steps: String
    if let first = mirror.firstStep, first > 1 {
      steps = "the initial state and steps \(first)…\(mirror.lastStep) (the app no longer holds "
        + "steps 1…\(first - 1))"
    } else {
      steps = "steps 0…\(mirror.lastStep)"
    }
    out.write("wrote \(path): \(steps)\n")
  }
}
