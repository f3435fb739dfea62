import ComposableCore
import Foundation
import TestSupport
import TraceKit
import XCTest

@testable import TraceRecorder

/// A recording's events in the slots of its queue: each kind written in place comes out of the
/// queue as the same `SessionEvent`, an effect's start, end or kept-back event writes only its
/// own bytes, and events left in the ring are released with it.
final class SessionSlotTests: XCTestCase {
  /// Counts its releases (held by the state, to see the slots' values destroyed).
  private final class Tracker: Encodable, Sendable {
    let released: LockedBox<Int>
    init(_ released: LockedBox<Int>) { self.released = released }
    deinit { released.mutate { $0 += 1 } }
    func encode(to encoder: any Encoder) throws {}
  }

  private struct Note: Encodable, Sendable {
    var title: String
    var tags: [String]
    var count: Int
    var tracker: Tracker?
    /// A state larger than an effect event, as an app's is.
    var margins = SIMD16<Int64>()
  }

  private enum NoteAction: Encodable, Sendable, Equatable {
    case rename(String)
    case tap
  }

  private typealias Kit = CaptureKit<Note, NoteAction>
  private typealias Queue = CaptureQueue<SessionEvent<Note, NoteAction>>

  private let uuidA = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
  private let uuidB = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!
  private let uuidC = UUID(uuidString: "00000000-0000-0000-0000-00000000000C")!

  func testEveryKindOfEventComesOutOfItsSlotAsItWentIn() {
    let kit = Kit()
    let queue = Queue(capacity: 8, layout: kit.layout)
    let launch = EffectLaunch(
      id: EffectID(uuid: uuidC), step: 1, kind: .concatenation, parent: EffectID(uuid: uuidA),
      cancelIDs: [], location: SourceLocation(fileID: "Notes/N.swift", filePath: "/N.swift", line: 12, column: 7))
    write(queue) { kit.start($0, Note(title: "a", tags: ["x"], count: 0), 1_700_000_000.5) }
    write(queue) {
      kit.writeStep(
        $0,
        StepFacts(
          step: 1, monotonicNanos: 1_200, origin: .effect(uuidA), sender: uuidA,
          reducerNanos: 340, dependencies: [.uuid(uuidB), .random(42)]),
        .rename("b"), Note(title: "b", tags: ["x", "y"], count: 1))
    }
    write(queue) {
      kit.writeEffect($0, .started(CapturedEffect(launch: launch, startNanos: 1_300, startedAfterStep: 1)))
    }
    write(queue) {
      kit.inspectorStep(
        $0,
        StepFacts(
          step: 2, monotonicNanos: 2_000, origin: .jump(toStep: 0), sender: nil,
          reducerNanos: 0, dependencies: []),
        Note(title: "a", tags: [], count: 2))
    }
    write(queue) {
      kit.writeEffect(
        $0, .ended(uuidC, nanos: 5_000, outcome: .cancelled(reason: "cancel", byStep: 2), afterStep: 2))
    }

    let events = queue.take(timeout: .zero)
    XCTAssertEqual(events.count, 5)
    XCTAssertEqual(events.map(describe), [
      #"start a ["x"] 0 at 1700000000.5"#,
      #"step 1 1200ns effect(\#(uuidA)) sender \#(uuidA) 340ns [uuid \#(uuidB.uuidString), random 42] rename("b") b ["x", "y"] 1"#,
      "started \(uuidC) step 1 concatenation parent \(uuidA) ids 0 Notes/N.swift:12:7 at 1300 after 1",
      "inspector 2 2000ns jump(toStep: 0) sender nil 0ns [] a [] 2",
      #"ended \#(uuidC) 5000ns cancelled(reason: "cancel", byStep: Optional(2)) after 2"#,
    ])
    XCTAssertEqual(queue.take(timeout: .zero).count, 0)
  }

  func testAnEffectEventWritesOnlyItsOwnBytesOfTheSlot() {
    let kit = Kit()
    let queue = Queue(capacity: 1, layout: kit.layout)
    let stride = queue.slotStride
    queue.slots.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride)
    write(queue) { kit.writeEffect($0, .ended(uuidC, nanos: 9, outcome: .finished, afterStep: 4)) }
    let end = SessionSlot<Note, NoteAction>.payload + MemoryLayout<EffectEvent>.size
    // A step's slot holds the state, the action and the facts: far more than an effect.
    XCTAssertEqual(stride, SessionSlot<Note, NoteAction>.stride)
    XCTAssertLessThan(end, stride)
    let bytes = UnsafeRawBufferPointer(start: queue.slots, count: stride)
    XCTAssertEqual(bytes[0], SessionSlot<Note, NoteAction>.Kind.effect.rawValue)
    XCTAssertEqual(Array(bytes[end...]), Array(repeating: 0xAB, count: stride - end))
    XCTAssertEqual(queue.take(timeout: .zero).map(describe), ["ended \(uuidC) 9ns finished after 4"])
  }

  /// The session writes an effect's start and end as structs, field by field: they come out
  /// as the same events, the id's bytes in their order, the outcome's text whole.
  func testAnEffectsStartAndEndWrittenInPlaceComeOutAsTheirEvents() {
    let kit = Kit()
    let queue = Queue(capacity: 8, layout: kit.layout)
    let id = UUID(uuidString: "01234567-89AB-7DEF-8123-456789ABCDEF")!
    let launch = EffectLaunch(
      id: EffectID(uuid: id), step: 3, kind: .run, parent: nil,
      cancelIDs: [
        EffectCancelID(id: AnyHashableSendable("timer"), navigationIDPath: NavigationIDPath())
      ],
      location: SourceLocation(fileID: "Notes/T.swift", filePath: "/T.swift", line: 4, column: 9))
    let reason = String(repeating: "long reason ", count: 4)
    write(queue) {
      CapturedEffect.initialize(
        $0, payload: kit.effectPayload, launch: launch, startNanos: 7_000, startedAfterStep: 3)
    }
    write(queue) {
      EffectEnding.initialize(
        $0, payload: kit.effectPayload, id: id, nanos: 9_000,
        outcome: .cancelled(reason: reason, byStep: 5), afterStep: 5)
    }
    write(queue) {
      EffectEnding.initialize(
        $0, payload: kit.effectPayload, id: uuidB, nanos: 10_000,
        outcome: .cancelled(reason: "storeTask", byStep: nil), afterStep: 6)
    }
    write(queue) {
      EffectEnding.initialize(
        $0, payload: kit.effectPayload, id: uuidA, nanos: .max, outcome: .finished, afterStep: 0)
    }
    let events = queue.take(timeout: .zero)
    XCTAssertEqual(events.map(describe), [
      "started \(id) step 3 run parent nil ids 1 Notes/T.swift:4:9 at 7000 after 3",
      #"ended \#(id) 9000ns cancelled(reason: "\#(reason)", byStep: Optional(5)) after 5"#,
      #"ended \#(uuidB) 10000ns cancelled(reason: "storeTask", byStep: nil) after 6"#,
      "ended \(uuidA) \(UInt64.max)ns finished after 0",
    ])
    guard case .effect(.started(let started)) = events.first else {
      return XCTFail("not a start: \(events.map(describe))")
    }
    XCTAssertEqual(started.launch, launch)
    guard case .effect(.ended(let endedID, _, _, _)) = events.dropFirst().first else {
      return XCTFail("not an end: \(events.map(describe))")
    }
    XCTAssertEqual(endedID.uuidString, "01234567-89AB-7DEF-8123-456789ABCDEF")
  }

  func testAStartAndAnEndWriteOnlyTheirOwnBytesOfTheSlot() {
    let kit = Kit()
    let queue = Queue(capacity: 1, layout: kit.layout)
    let stride = queue.slotStride
    let payload = SessionSlot<Note, NoteAction>.payload
    let launch = EffectLaunch(
      id: EffectID(uuid: uuidC), step: 1, kind: .run, parent: nil, cancelIDs: [], location: nil)
    for (size, kind) in [
      (MemoryLayout<CapturedEffect>.size, SessionSlotKind.effectStarted),
      (MemoryLayout<EffectEnding>.size, .effectEnded),
    ] {
      queue.slots.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride)
      write(queue) {
        if kind == .effectStarted {
          CapturedEffect.initialize(
            $0, payload: kit.effectPayload, launch: launch, startNanos: 1, startedAfterStep: 1)
        } else {
          EffectEnding.initialize(
            $0, payload: kit.effectPayload, id: uuidC, nanos: 2, outcome: .finished, afterStep: 1)
        }
      }
      let end = payload + size
      XCTAssertLessThan(end, stride)
      let bytes = UnsafeRawBufferPointer(start: queue.slots, count: stride)
      XCTAssertEqual(bytes[0], kind.rawValue)
      XCTAssertEqual(Array(bytes[end...]), Array(repeating: 0xAB, count: stride - end))
      XCTAssertEqual(queue.take(timeout: .zero).count, 1)
    }
  }

  /// A step's state is copied by the specialized code when small and by its value witness
  /// from `witnessCopyMinimum` bytes: both copies hold the state, retained, as it was.
  func testASmallStateAndALargeOneAreCopiedWhole() {
    struct Tally: Encodable, Sendable {
      var count: Int
      var label: String
      var tracker: Tracker?
    }
    XCTAssertLessThan(MemoryLayout<Tally>.size, SessionSlot<Tally, NoteAction>.witnessCopyMinimum)
    XCTAssertGreaterThanOrEqual(
      MemoryLayout<Note>.size, SessionSlot<Note, NoteAction>.witnessCopyMinimum)
    let released = LockedBox(0)
    let facts = StepFacts(
      step: 1, monotonicNanos: 5, origin: .user, sender: nil, reducerNanos: 1, dependencies: [])
    do {
      let kit = CaptureKit<Tally, NoteAction>()
      let queue = CaptureQueue<SessionEvent<Tally, NoteAction>>(capacity: 2, layout: kit.layout)
      var tally = Tally(
        count: 3, label: String(repeating: "t", count: 30), tracker: Tracker(released))
      let slot = queue.reserveSlot(whenFull: .drop)!
      withUnsafePointer(to: tally) { kit.step(slot, facts, .tap, $0) }
      queue.publish()
      tally.tracker = nil
      XCTAssertEqual(released.value, 0)
      guard case .step(let step) = queue.take(timeout: .zero).first else {
        return XCTFail("no step")
      }
      XCTAssertEqual(step.state.count, 3)
      XCTAssertEqual(step.state.label, String(repeating: "t", count: 30))
      XCTAssertNotNil(step.state.tracker)
    }
    XCTAssertEqual(released.value, 1)
    do {
      let kit = Kit()
      let queue = Queue(capacity: 2, layout: kit.layout)
      var note = Note(title: String(repeating: "n", count: 30), tags: ["a", "b"], count: 4)
      note.tracker = Tracker(released)
      note.margins[15] = 99
      write(queue) { kit.writeStep($0, facts, .tap, note) }
      note.tracker = nil
      note.tags.append("c")
      XCTAssertEqual(released.value, 1)
      guard case .step(let step) = queue.take(timeout: .zero).first else {
        return XCTFail("no step")
      }
      XCTAssertEqual(step.state.title, String(repeating: "n", count: 30))
      XCTAssertEqual(step.state.tags, ["a", "b"])
      XCTAssertEqual(step.state.margins[15], 99)
      XCTAssertNotNil(step.state.tracker)
    }
    XCTAssertEqual(released.value, 2)
  }

  func testTheRingWrapsAroundWithEveryKindInOrder() {
    let kit = Kit()
    let queue = Queue(capacity: 3, layout: kit.layout)
    var expected: [String] = []
    var received: [String] = []
    for index in 0..<12 {
      switch index % 3 {
      case 0:
        write(queue) {
          kit.writeStep(
            $0,
            StepFacts(
              step: index, monotonicNanos: UInt64(index), origin: .user, sender: nil,
              reducerNanos: 1, dependencies: []),
            .tap, Note(title: "\(index)", tags: [], count: index))
        }
        expected.append("step \(index) \(index)ns user sender nil 1ns [] tap \(index) [] \(index)")
      case 1:
        write(queue) {
          kit.writeEffect($0, .ended(uuidA, nanos: UInt64(index), outcome: .finished, afterStep: index))
        }
        expected.append("ended \(uuidA) \(index)ns finished after \(index)")
      default:
        write(queue) { kit.start($0, Note(title: "\(index)", tags: ["s"], count: 0), Double(index)) }
        expected.append(#"start \#(index) ["s"] 0 at \#(Double(index))"#)
      }
      if index % 2 == 1 { received += queue.take(timeout: .zero).map(describe) }
    }
    XCTAssertEqual(received, expected)
    XCTAssertEqual(queue.highWater, 2)
  }

  func testEventsLeftInTheRingAreReleasedWithIt() {
    let released = LockedBox(0)
    do {
      let kit = Kit()
      let queue = Queue(capacity: 5, layout: kit.layout)
      let facts = StepFacts(
        step: 1, monotonicNanos: 0, origin: .user, sender: nil, reducerNanos: 0,
        dependencies: [.random(1)])
      write(queue) { kit.start($0, Note(title: "", tags: [], count: 0, tracker: Tracker(released)), 0) }
      // Taken: released once the batch goes.
      XCTAssertEqual(queue.take(timeout: .zero).count, 1)
      XCTAssertEqual(released.value, 1)
      write(queue) { kit.start($0, Note(title: "", tags: [], count: 0, tracker: Tracker(released)), 0) }
      write(queue) {
        kit.writeStep($0, facts, .tap, Note(title: "", tags: [], count: 0, tracker: Tracker(released)))
      }
      write(queue) {
        kit.inspectorStep($0, facts, Note(title: "", tags: [], count: 0, tracker: Tracker(released)))
      }
      write(queue) { kit.writeEffect($0, .ended(uuidA, nanos: 0, outcome: .finished, afterStep: 0)) }
      write(queue) {
        EffectEnding.initialize(
          $0, payload: kit.effectPayload, id: uuidA, nanos: 0,
          outcome: .cancelled(reason: String(repeating: "x", count: 40), byStep: 1), afterStep: 1)
      }
      XCTAssertEqual(released.value, 1)
    }
    XCTAssertEqual(released.value, 4)
  }

  // MARK: Helpers

  private func write(_ queue: Queue, _ body: (UnsafeMutableRawPointer) -> Void) {
    guard let slot = queue.reserveSlot(whenFull: .drop) else {
      XCTFail("no room")
      return
    }
    body(slot)
    queue.publish()
  }

  private func describe(_ event: SessionEvent<Note, NoteAction>) -> String {
    func note(_ note: Note) -> String { "\(note.title) \(note.tags) \(note.count)" }
    func facts(_ facts: StepFacts) -> String {
      "\(facts.step) \(facts.monotonicNanos)ns \(facts.origin) sender \(facts.sender.map { "\($0)" } ?? "nil") \(facts.reducerNanos)ns \(facts.dependencies)"
    }
    switch event {
    case .start(let state, let wallTime):
      return "start \(note(state)) at \(wallTime)"
    case .step(let step):
      return "step \(facts(step.facts)) \(step.action) \(note(step.state))"
    case .inspectorStep(let stepFacts, let state):
      return "inspector \(facts(stepFacts)) \(note(state))"
    case .effect(.started(let effect)):
      let location = effect.location.map { "\($0.fileID):\($0.line):\($0.column)" } ?? "nil"
      return
        "started \(effect.id) step \(effect.startedByStep) \(effect.kind) parent \(effect.parent.map { "\($0)" } ?? "nil") ids \(effect.cancelIDs.count) \(location) at \(effect.startNanos) after \(effect.startedAfterStep)"
    case .effect(.ended(let id, let nanos, let outcome, let afterStep)):
      return "ended \(id) \(nanos)ns \(outcome) after \(afterStep)"
    case .finish:
      return "finish"
    }
  }
}

extension CaptureKit {
  /// Writes a step as the session does, from a state value (the store passes a pointer to the
  /// state where it keeps it).
  fileprivate func writeStep(
    _ slot: UnsafeMutableRawPointer, _ facts: StepFacts, _ action: Action, _ state: State
  ) {
    withUnsafePointer(to: state) { step(slot, facts, action, $0) }
  }

  /// Writes an effect event as the session does.
  fileprivate func writeEffect(_ slot: UnsafeMutableRawPointer, _ event: EffectEvent) {
    EffectEvent.initialize(slot, payload: effectPayload, to: event)
  }
}
