import ComposableCore
import Foundation
import XCTest

private struct ChunkRow: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var title: String
  var done = false
}

/// `IdentifiedArray` stores elements in chunks of 64: these tests cross chunk boundaries and
/// check every operation against a plain array doing the same thing.
final class IdentifiedArrayChunkTests: XCTestCase {
  private struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
  }

  private func rows(_ range: Range<Int>) -> [ChunkRow] {
    range.map { ChunkRow(id: $0, title: "row \($0)") }
  }

  private func assertSame(
    _ array: IdentifiedArrayOf<ChunkRow>, _ model: [ChunkRow], _ message: String,
    line: UInt = #line
  ) {
    XCTAssertEqual(array.elements, model, message, line: line)
    XCTAssertEqual(Array(array), model, message, line: line)
    XCTAssertEqual(array.ids, model.map(\.id), message, line: line)
    XCTAssertEqual(array.count, model.count, message, line: line)
    for (index, row) in model.enumerated() {
      XCTAssertEqual(array.index(id: row.id), index, message, line: line)
      XCTAssertEqual(array[id: row.id], row, message, line: line)
    }
    XCTAssertEqual(array, IdentifiedArray(uniqueElements: model), message, line: line)
    XCTAssertEqual(array.hashValue, model.hashValue, message, line: line)
  }

  func testEveryOperationMatchesAPlainArrayAcrossChunkBoundaries() {
    var random = Generator(state: 7)
    var array = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<150))
    var model = rows(0..<150)
    var nextID = 1_000
    var minimum = Int.max
    for step in 0..<400 {
      let held = array  // a copy shares chunks: mutations must not reach it
      let heldModel = model
      switch random.next(10) {
      case 0:
        // Removals outnumber insertions below, so each insertion adds a few rows.
        let new = (nextID..<nextID + 5).map { ChunkRow(id: $0, title: "new") }
        nextID += 5
        array.append(contentsOf: new)
        model.append(contentsOf: new)
      case 1:
        for _ in 0..<4 {
          let index = random.next(model.count + 1)
          let row = ChunkRow(id: nextID, title: "inserted")
          nextID += 1
          array.insert(row, at: index)
          model.insert(row, at: index)
        }
      case 2 where !model.isEmpty:
        let index = random.next(model.count)
        XCTAssertEqual(array.remove(id: model[index].id), model.remove(at: index))
      case 3 where !model.isEmpty:
        let index = random.next(model.count)
        XCTAssertEqual(array.remove(at: index), model.remove(at: index))
      case 4 where model.count > 3:
        let offsets = Set((0..<3).map { _ in random.next(model.count) })
        array.remove(atOffsets: offsets)
        for offset in offsets.sorted(by: >) { model.remove(at: offset) }
      case 5 where !model.isEmpty:
        let index = random.next(model.count)
        array[id: model[index].id]?.title = "t\(step)"
        model[index].title = "t\(step)"
      case 6 where !model.isEmpty:
        let index = random.next(model.count)
        array[id: model[index].id] = nil
        model.remove(at: index)
      case 7 where model.count > 2:
        let source = Set([random.next(model.count), random.next(model.count)])
        let destination = random.next(model.count + 1)
        array.move(fromOffsets: source, toOffset: destination)
        let moving = source.sorted().map { model[$0] }
        let before = source.filter { $0 < destination }.count
        model = model.enumerated().filter { !source.contains($0.offset) }.map(\.element)
        model.insert(contentsOf: moving, at: min(destination - before, model.count))
      case 8:
        array.removeAll { $0.id % 50 == step % 50 }
        model.removeAll { $0.id % 50 == step % 50 }
      default:
        array.sort { $0.title < $1.title || ($0.title == $1.title && $0.id > $1.id) }
        model.sort { $0.title < $1.title || ($0.title == $1.title && $0.id > $1.id) }
      }
      assertSame(array, model, "step \(step)")
      assertSame(held, heldModel, "held copy at step \(step)")
      minimum = min(minimum, model.count)
    }
    XCTAssertGreaterThan(minimum, 64, "the walk stays longer than one chunk")
  }

  func testChangingOneElementOfACopyChangesOnlyItsChunk() {
    let old = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<200))
    var new = old
    XCTAssertEqual(new.chunksChanged(since: old), [])
    new[id: 70]?.done = true
    XCTAssertEqual(new.chunkCount, 4)
    XCTAssertEqual(new.chunkRange(1), 64..<128)
    XCTAssertEqual(new.chunkRange(3), 192..<200)
    XCTAssertEqual(new.chunksChanged(since: old), [1])
    XCTAssertEqual(old[id: 70]?.done, false)
    XCTAssertNotEqual(new, old)
    new[id: 70]?.done = false
    XCTAssertEqual(new, old)
    new.append(ChunkRow(id: 500, title: "last"))
    XCTAssertEqual(new.chunksChanged(since: old), [1, 3])
    new.insert(ChunkRow(id: 501, title: "first"), at: 0)
    XCTAssertEqual(new.chunksChanged(since: old), [0, 1, 2, 3])
  }

  /// Lists of more chunks than `chunksChanged` compares at once (16): every changed chunk is
  /// found, at either side of each run boundary, and a longer list's chunks past the other's
  /// last are all listed.
  func testChunksChangedFindsEveryChangedChunkOfALongList() {
    let old = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<(40 * 64)))
    XCTAssertEqual(old.chunkCount, 40)
    for chunks in [[], [0], [15], [16], [15, 16], [0, 17, 31, 32, 39], Array(0..<40)] {
      var new = old
      for chunk in chunks { new[id: chunk * 64 + 5]?.done = true }
      XCTAssertEqual(new.chunksChanged(since: old), chunks, "\(chunks)")
    }
    var longer = old
    longer[id: 33 * 64]?.title = "changed"
    longer.append(contentsOf: rows(5_000..<5_130))
    XCTAssertEqual(longer.chunksChanged(since: old), [33, 40, 41, 42])
    var shorter = old
    shorter.remove(atOffsets: (37 * 64)..<(40 * 64))
    shorter[id: 20 * 64 + 63]?.done = true
    XCTAssertEqual(shorter.chunksChanged(since: old), [20])
    XCTAssertEqual(old.chunksChanged(since: IdentifiedArrayOf<ChunkRow>()), Array(0..<40))
    XCTAssertEqual(IdentifiedArrayOf<ChunkRow>().chunksChanged(since: old), [])
  }

  /// The order a move leaves, computed the plain way: the offsets as a set, the moving rows in
  /// increasing offset order inserted at the destination less the offsets before it (kept
  /// inside the rest).
  private func referenceMove(_ model: [ChunkRow], _ source: [Int], _ destination: Int)
    -> [ChunkRow]
  {
    let offsets = Set(source)
    guard !offsets.isEmpty else { return model }
    let moving = offsets.sorted().map { model[$0] }
    var rest = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
    let before = offsets.filter { $0 < destination }.count
    rest.insert(contentsOf: moving, at: min(max(destination - before, 0), rest.count))
    return rest
  }

  /// Moves `source` to `destination` in a copy of `array` and checks it against
  /// `referenceMove`, that `array` is untouched, and that `chunksChanged` lists every chunk
  /// whose rows changed; a run of offsets (`exactChunks`) changes no other chunk.
  private func assertMove(
    _ array: IdentifiedArrayOf<ChunkRow>, _ source: some Sequence<Int>, _ offsets: [Int],
    to destination: Int, exactChunks: Bool, line: UInt = #line
  ) {
    let model = Array(array)
    let expected = referenceMove(model, offsets, destination)
    var moved = array
    moved.move(fromOffsets: source, toOffset: destination)
    let message = "\(offsets) to \(destination) of \(model.count)"
    assertSame(moved, expected, message, line: line)
    assertSame(array, model, "held copy, " + message, line: line)
    let changed = (0..<moved.chunkCount).filter {
      moved.chunk($0) != array.chunk($0)
    }
    let listed = moved.chunksChanged(since: array)
    XCTAssertEqual(listed.filter(changed.contains), changed, message, line: line)
    if exactChunks { XCTAssertEqual(listed, changed, message, line: line) }
  }

  func testMovingARunOfOffsetsMatchesThePlainMoveAndChangesOnlyItsChunks() {
    for count in [0, 1, 2, 3, 8] {
      let array = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<count))
      for start in 0..<count {
        for end in start + 1...count {
          for destination in -2...count + 2 {
            assertMove(
              array, Array(start..<end), Array(start..<end), to: destination, exactChunks: true)
          }
        }
      }
    }
    for count in [64, 65, 130, 200] {
      let array = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<count))
      let places = [0, 1, 62, 63, 64, 65, 128, 129, 199].filter {
        $0 < count
      }
      for start in places {
        for length in [1, 2, 3, 70] where start + length <= count {
          for destination in places + [-1, count, count + 1] {
            let run = Array(start..<start + length)
            assertMove(array, run, run, to: destination, exactChunks: true)
          }
        }
      }
    }
  }

  func testMovingOtherOffsetsMatchesThePlainMove() {
    var random = Generator(state: 11)
    for count in [2, 3, 8, 64, 130] {
      let array = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<count))
      for _ in 0..<60 {
        let offsets = (0..<1 + random.next(4)).map { _ in random.next(count) }
        let destination = random.next(count + 3) - 1
        assertMove(array, offsets, offsets, to: destination, exactChunks: false)
      }
      // Repeated offsets, a run read backwards, a run with one more offset after a gap.
      for offsets in [[1, 1], [1, 0], [0, 1, 1], [0, 1, count - 1], [count - 1, 0]] {
        for destination in [0, 1, count / 2, count] {
          assertMove(array, offsets, offsets, to: destination, exactChunks: false)
        }
      }
    }
  }

  func testMoveReadsItsOffsetsOnce() {
    let array = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<10))
    for offsets in [[], [4], [4, 5, 6], [4, 5, 2], [7, 3]] {
      for destination in [0, 5, 10] {
        var remaining = offsets[...]
        let once = AnySequence { AnyIterator { remaining.popFirst() } }
        assertMove(array, once, offsets, to: destination, exactChunks: false)
      }
    }
  }

  func testCodableAndDescriptionAreThoseOfThePlainElements() throws {
    let array = IdentifiedArrayOf<ChunkRow>(uniqueElements: rows(0..<130))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys  // keys come in hash order otherwise
    let data = try encoder.encode(array)
    XCTAssertEqual(
      String(decoding: data, as: UTF8.self),
      String(decoding: try encoder.encode(rows(0..<130)), as: UTF8.self))
    XCTAssertEqual(try JSONDecoder().decode(IdentifiedArrayOf<ChunkRow>.self, from: data), array)
    XCTAssertEqual(array.description, rows(0..<130).description)
  }
}
