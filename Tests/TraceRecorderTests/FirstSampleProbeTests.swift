import TraceValues
import XCTest

@testable import TraceRecorder

/// An enum whose first value holds no class instance, and a later one does (`JarCount`, whose
/// own `encode(to:)` reads the jar): the replay's hasher, which reuses a place's hash while
/// its bits stay (`HashMemo`), must still give what the tree encoder gives when the instance
/// changes in place. (aud27's D2: when the first value decided the type's kind, steps 2 and 3
/// kept step 1's hash.)
final class FirstSampleProbeTests: XCTestCase {
  func testTheReplayHasherMatchesTheTreeAfterABoxChangedInPlace() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true, valueBytes: significantBytes(of:))
    let encoder = TraceValueEncoder()
    let box = Jar()
    var state = ProbeShelf()
    var hashes: [UInt64] = []
    var trees: [UInt64] = []
    for step in 0..<4 {
      switch step {
      case 0: state.count = .plain(1)
      case 1: state.count = .boxed(box)
      default: box.count += 1
      }
      hashes.append(try hasher.stableHash(of: state))
      trees.append(try encoder.encodeReplacingClassInstances(state).value.stableHash)
    }
    XCTAssertEqual(hashes, trees)
  }
}

private struct ProbeShelf: Encodable {
  var title = "shelf"
  var count = JarCount.plain(0)
}
