import TraceKit
import XCTest

@testable import TraceRecorder

/// The two tables typed replay asks at every step: recorded actions by their bytes, matched
/// states by their recorded hash. Both are open-addressing tables of their own, so what is
/// checked here is what a dictionary gave for free: a hit only for the same key, every key
/// found again past slot collisions, and the bound.
final class ReplayLookupTests: XCTestCase {
  func testTheSameBytesInAnotherBufferAreTheSameActionAndOtherBytesAreNot() throws {
    let actions = RecordedActions()
    let plus = try action(actions, #"{"$case":"plus"}"#)
    let minus = try action(actions, #"{"$case":"minus"}"#)
    let plusAgain = try action(actions, #"{"$case":"plus"}"#)
    // A prefix and an extension of the same bytes are other actions.
    let prefix = try action(actions, #"{"$case":"plu"}"#)
    XCTAssertEqual([plus.id, minus.id, plusAgain.id, prefix.id], [0, 1, 0, 2])
    XCTAssertEqual(plus.value, .enumCase("plus", []))
    XCTAssertEqual(minus.value, .enumCase("minus", []))
    XCTAssertEqual(plusAgain.value, plus.value)
  }

  func testEveryActionUpToTheCapacityIsFoundAgainWithItsIdThenTheTableStartsAgain() throws {
    let actions = RecordedActions()
    let capacity = RecordedActions.capacity
    // 4,096 keys in 8,192 slots: many share a first slot and are found by probing.
    for number in 0..<capacity {
      XCTAssertEqual(try action(actions, "\(number)").id, number)
    }
    for number in (0..<capacity).reversed() {
      let found = try action(actions, "\(number)")
      XCTAssertEqual(found.id, number)
      XCTAssertEqual(found.value, .int(Int64(number)))
    }
    // One more distinct action empties the table: ids go on, never reused, so an action
    // seen before gets a new one.
    XCTAssertEqual(try action(actions, "\(capacity)").id, capacity)
    XCTAssertEqual(try action(actions, "0").id, capacity + 1)
    XCTAssertEqual(try action(actions, "\(capacity)").id, capacity)
  }

  func testBytesThatAreNoJSONThrowAndAreNotKept() throws {
    let actions = RecordedActions()
    XCTAssertThrowsError(try action(actions, #"{"$case":"#))
    XCTAssertEqual(try action(actions, "1").id, 0)
  }

  func testAStateIsFoundOnlyUnderItsHashAndOnlyWhenEqual() {
    let states = StateHashes<String>()
    XCTAssertFalse(states.contains("a", hash: 1, equal: ==))
    states.insert("a", hash: 1)
    XCTAssertTrue(states.contains("a", hash: 1, equal: ==))
    XCTAssertFalse(states.contains("b", hash: 1, equal: ==))
    XCTAssertFalse(states.contains("a", hash: 2, equal: ==))
    // Inserting under a hash kept already replaces its state.
    states.insert("b", hash: 1)
    XCTAssertTrue(states.contains("b", hash: 1, equal: ==))
    XCTAssertFalse(states.contains("a", hash: 1, equal: ==))
  }

  func testHashesSharingASlotAreEachFoundWithTheirOwnState() {
    let first: UInt64 = 0x5f1d_0000_0000_0001
    let slot = StateHashes<Int>.slot(of: first)
    var sharing: [UInt64] = []
    var candidate = first
    while sharing.count < 3 {
      candidate &+= 1
      if StateHashes<Int>.slot(of: candidate) == slot { sharing.append(candidate) }
    }
    let states = StateHashes<Int>()
    let hashes = [first] + sharing
    for (number, hash) in hashes.enumerated() { states.insert(number, hash: hash) }
    for (number, hash) in hashes.enumerated() {
      XCTAssertTrue(states.contains(number, hash: hash, equal: ==), "hash \(hash)")
      XCTAssertFalse(states.contains(number + 1, hash: hash, equal: ==), "hash \(hash)")
    }
    XCTAssertFalse(states.contains(0, hash: candidate &+ 1, equal: ==))
  }

  func testPastTheCapacityTheTableStartsAgainEmpty() {
    let states = StateHashes<Int>()
    let capacity = StateHashes<Int>.capacity
    for number in 0..<capacity { states.insert(number, hash: UInt64(number) &* 0x9e37) }
    for number in 0..<capacity {
      XCTAssertTrue(states.contains(number, hash: UInt64(number) &* 0x9e37, equal: ==))
    }
    states.insert(capacity, hash: UInt64(capacity) &* 0x9e37)
    XCTAssertFalse(states.contains(0, hash: 0, equal: ==))
    XCTAssertTrue(states.contains(capacity, hash: UInt64(capacity) &* 0x9e37, equal: ==))
    // Replacing a kept state does not count as one more.
    states.insert(-1, hash: UInt64(capacity) &* 0x9e37)
    XCTAssertTrue(states.contains(-1, hash: UInt64(capacity) &* 0x9e37, equal: ==))
  }

  private func action(_ actions: RecordedActions, _ json: String) throws
    -> (value: TraceValue, id: Int)
  {
    // A fresh buffer each time: a hit is by the bytes, not by where they are.
    let bytes = Array(json.utf8)
    return try bytes.withUnsafeBytes { try actions.action($0) }
  }
}
