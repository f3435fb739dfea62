import TraceValues
import XCTest

@testable import TraceRecorder

/// Whether a type holds class instances is probed on the first value of it the encoder
/// meets (`TypeKindCache.encodingKind`). A type whose first value holds none, and a later one
/// does, is then encoded through its own `encode(to:)`, which reads the instance: the replay's
/// hasher, which reuses a place's hash while its bits stay (`HashMemo`), must still give what
/// the tree encoder gives when the instance changes in place.
final class FirstSampleProbeTests: XCTestCase {
  func testTheReplayHasherMatchesTheTreeAfterABoxChangedInPlace() throws {
    let hasher = StableHashEncoder(replacingClassInstances: true, valueBytes: significantBytes(of:))
    let encoder = TraceValueEncoder()
    let box = ProbeBox()
    var state = ProbeShelf()
    var hashes: [UInt64] = []
    var trees: [UInt64] = []
    for step in 0..<4 {
      switch step {
      case 0: state.count = .plain(1)
      case 1: state.count = .boxed(box)
      default: box.value += 1
      }
      hashes.append(try hasher.stableHash(of: state))
      trees.append(try encoder.encodeReplacingClassInstances(state).value.stableHash)
    }
    XCTAssertEqual(hashes, trees)
  }
}

private final class ProbeBox {
  var value = 0
}

/// A count that is either a number or a box's value, written as the number either way.
private enum ProbeCount: Encodable {
  case plain(Int)
  case boxed(ProbeBox)

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .plain(let value): try container.encode(value)
    case .boxed(let box): try container.encode(box.value)
    }
  }
}

private struct ProbeShelf: Encodable {
  var title = "shelf"
  var count = ProbeCount.plain(0)
}
