import ComposableCore
import Foundation
import LiveAttach
import TestSupport
import TraceKit
import TraceRecorder
import XCTest

/// What a client can throw at an app's socket — random bytes, oversized frames, half frames,
/// malformed and unknown messages, a thousand connections opened and dropped — is answered
/// with an error or ignored, and the app goes on reducing every action exactly.
@MainActor
final class LiveHostileInputTests: XCTestCase {
  private var directory: TemporaryDirectory!

  override func setUp() async throws {
    directory = try TemporaryDirectory(prefix: "rewind-hostile")
  }

  private var socketPath: String { directory.path("run") + "/\(getpid()).sock" }

  private func makeRecorder() throws -> Recorder {
    try Recorder(
      path: directory.path("t.rewind"),
      configuration: .init(live: .init(directory: directory.path("run"))))
  }

  func testEachBadFrameIsAnsweredWithItsErrorAndTheConnectionGoesOnWhereItCan() async throws {
    let recorder = try makeRecorder()
    let store = Store(initialState: LiveFeature.State()) {
      LiveFeature(gates: EffectGates()).recording(to: recorder)
    }
    store.send(.plus)
    let path = socketPath
    let answers = try await Task.detached { () throws -> [String] in
      var answers: [String] = []
      // Not hello first: refused and closed.
      var raw = try RawConnection(path: path)
      answers += try raw.exchange(frame: #"{"type":"pause","id":1}"#)
      XCTAssertTrue(raw.isClosedByApp())
      raw = try RawConnection(path: path)
      answers += try raw.exchange(frame: #"{"type":"hello","version":2}"#)
      XCTAssertTrue(raw.isClosedByApp())
      raw = try RawConnection(path: path)
      answers += try raw.exchange(frame: #"{"type":"hello","version":1}"#).map { _ in "welcome" }
      answers += try raw.exchange(frame: "nope")
      answers += try raw.exchange(frame: #"{"type":"dance","id":3}"#)
      answers += try raw.exchange(frame: #"{"type":"jump","id":4,"step":-1}"#)
      answers += try raw.exchange(frame: #"{"type":"jump","id":5}"#)
      answers += try raw.exchange(frame: #"{"type":"welcome"}"#)
      answers += try raw.exchange(frame: #"{"type":"hello","version":1}"#)
      answers += try raw.exchange(frame: String(repeating: "[", count: 600))
      // Still usable after all that.
      answers += try raw.exchange(frame: #"{"type":"status","id":6}"#).map { _ in "ok" }
      // A frame that announces more than 1 MiB: refused, and the connection is closed.
      answers += try raw.exchange(header: UInt32(LiveProtocol.requestLimit + 1), payload: [])
      XCTAssertTrue(raw.isClosedByApp())
      return answers
    }.value
    XCTAssertEqual(
      answers,
      [
        "error hello: the first message must be hello",
        "error version: this app speaks live protocol version 1, not 2",
        "welcome",
        "error malformed: malformed message: not JSON: "
          + "invalid trace JSON at byte 0: expected 'null'",
        "error unknownType: unknown message type 'dance'",
        "error malformed: malformed message: 'step' is not a non-negative integer",
        "error malformed: malformed message: 'step' is missing",
        "error malformed: malformed message: 'version' is missing",
        "error hello: hello was already said",
        "error malformed: malformed message: not JSON: "
          + "invalid trace JSON at byte 512: nesting deeper than 512 levels",
        "ok",
        "error frameTooLarge: a frame of 1048577 bytes is over the limit of 1048576 bytes",
      ])
    store.send(.plus)
    XCTAssertEqual(store.count, 2)
    recorder.finish()
  }

  func testRandomBytesHalfFramesAndAThousandConnectionsLeaveTheAppReducingExactly()
    async throws
  {
    let recorder = try makeRecorder()
    let store = Store(initialState: LiveFeature.State()) {
      LiveFeature(gates: EffectGates()).recording(to: recorder)
    }
    let path = socketPath
    let done = Flag()
    let attack = Task.detached {
      defer { done.set() }
      var random = SplitMix(seed: 7)
      var stalled: [RawConnection] = []
      for round in 0..<1_000 {
        guard let raw = try? RawConnection(path: path) else { continue }
        switch round % 4 {
        case 0:
          // Random bytes, lengths and all.
          let count = Int(random.next() % 4_096)
          raw.send((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 1:
          // Half a frame, then gone.
          raw.send([0, 0, 1, 0] + Array(#"{"type":"hel"#.utf8))
        case 2:
          // Half a frame that stays: it only holds its own connection.
          raw.send([0, 0, 0, 200, UInt8(ascii: "{")])
          if stalled.count < 8 { stalled.append(raw) }
        default:
          // Connected and dropped without a word.
          break
        }
      }
      return stalled.count
    }
    var sent = 0
    while !done.done || sent < 2_000 {
      store.send(.plus)
      sent += 1
      if sent % 50 == 0 { await Task.yield() }
    }
    _ = await attack.value
    XCTAssertEqual(store.count, sent)
    // A well-behaved inspector is still served.
    let status = try await Task.detached {
      try LiveClient(socketPath: path).run(.status).status
    }.value
    XCTAssertEqual(status, LiveStatus(lastStep: sent, isPaused: false))
    await recorder.waitUntilFinished()
    let reader = try TraceReader(path: directory.path("t.rewind"))
    XCTAssertEqual(try reader.info().stepCount, sent)
    guard case .object(let fields) = try reader.state(at: sent) else {
      return XCTFail("no state")
    }
    XCTAssertEqual(fields[0].value, .int(Int64(sent)))
  }

  /// Inspectors that hung up give their places back at once: one that attaches right after as
  /// many as the limit (64) hung up is served, even if the app has not polled their sockets.
  func testAnInspectorAttachingRightAfterAFullHouseHungUpIsServed() async throws {
    let recorder = try makeRecorder()
    let store = Store(initialState: LiveFeature.State()) {
      LiveFeature(gates: EffectGates()).recording(to: recorder)
    }
    store.send(.plus)
    let path = socketPath
    let (welcomed, status) = try await Task.detached { () throws -> (Int, LiveStatus?) in
      var greeted: [RawConnection] = []
      for _ in 0..<64 {
        var raw = try RawConnection(path: path)
        if try raw.exchange(frame: #"{"type":"hello","version":1}"#) == ["welcome"] {
          greeted.append(raw)
        }
      }
      for raw in greeted { raw.socket.close() }
      return (greeted.count, try LiveClient(socketPath: path).run(.status).status)
    }.value
    XCTAssertEqual(welcomed, 64)
    XCTAssertEqual(status, LiveStatus(lastStep: 1, isPaused: false))
    recorder.finish()
  }
}

/// A one-way flag a test sets from another task.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var done: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}

/// A client that speaks bytes, not the protocol: for what a well-behaved client never sends.
struct RawConnection {
  let socket: UnixSocket
  private var reader = FrameReader(limit: LiveProtocol.messageLimit)

  init(path: String) throws {
    socket = try UnixSocket.connect(to: path)
  }

  func send(_ bytes: [UInt8]) {
    var offset = 0
    let deadline = Date().addingTimeInterval(5)
    while offset < bytes.count, Date() < deadline {
      switch socket.write(bytes[offset...]) {
      case .moved(let count): offset += count
      case .wouldBlock: usleep(1_000)
      case .closed: return
      }
    }
  }

  /// Sends one frame holding `frame` and returns the answers it got, one line each.
  mutating func exchange(frame: String) throws -> [String] {
    let payload = Array(frame.utf8)
    return try exchange(header: UInt32(payload.count), payload: payload)
  }

  mutating func exchange(header: UInt32, payload: [UInt8]) throws -> [String] {
    send(
      [
        UInt8(truncatingIfNeeded: header >> 24), UInt8(truncatingIfNeeded: header >> 16),
        UInt8(truncatingIfNeeded: header >> 8), UInt8(truncatingIfNeeded: header),
      ] + payload)
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let frame = try reader.next() {
        switch try LiveMessage(json: frame) {
        case .error(_, let code, let message): return ["error \(code): \(message)"]
        case let message: return [message.type]
        }
      }
      var bytes: [UInt8] = []
      switch socket.read(into: &bytes) {
      case .moved: reader.append(bytes)
      case .wouldBlock: usleep(1_000)
      case .closed: return ["closed"]
      }
    }
    return ["no answer"]
  }

  /// Whether the app closed the connection (after what it answered).
  func isClosedByApp() -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      var bytes: [UInt8] = []
      switch socket.read(into: &bytes) {
      case .closed: return true
      case .moved: continue
      case .wouldBlock: usleep(1_000)
      }
    }
    return false
  }
}
