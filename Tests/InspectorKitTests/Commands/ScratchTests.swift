import XCTest
@testable import InspectorKit

final class ScratchTests: XCTestCase {
  func testPrint() {
    for args in [["info", "memory.rewind"], ["log", "memory.rewind"], ["log", "memory.rewind", "--path", "todos", "--json"], ["show", "memory.rewind", "3"], ["diff", "memory.rewind", "3"], ["diff", "memory.rewind", "0", "4", "--json"], ["tree", "memory.rewind"], ["effects", "memory.rewind"], ["effects", "memory.rewind", "--timeline"], ["replay", "memory.rewind"], ["export", "memory.rewind", "--from", "2", "--to", "3"], ["log", "memory.rewind", "--grep", "("], ["show", "memory.rewind", "9"], ["diff", "x.rewind", "1"], ["log", "memory.rewind", "--from"], ["show", "memory.rewind"], ["show", "memory.rewind", "1", "--path", "todos[id"], ["effects", "memory.rewind", "--json"], ["tree", "memory.rewind", "--json"]] {
      let r = SampleTrace.run(args)
      print("$ inspector \(args.joined(separator: " "))  → \(r.status)\n\(r.out)\(r.err)")
    }
  }
}
