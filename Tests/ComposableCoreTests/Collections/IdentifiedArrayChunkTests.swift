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
