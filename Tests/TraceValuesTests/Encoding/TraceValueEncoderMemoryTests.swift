import TraceValues
import XCTest

/// The encoder runs for every recorded step: nothing it builds may outlive the encoding.
final class TraceValueEncoderMemoryTests: XCTestCase {
  private final class Seen {
    weak var encoder: AnyObject?
  }

  /// Encodes itself with a nested container, and remembers (weakly) the encoder it was given.
  private struct Probe: Encodable {
    let seen: Seen

    enum Keys: CodingKey { case inner, value }

    func encode(to encoder: any Encoder) throws {
      seen.encoder = encoder as AnyObject
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
      try nested.encode(1, forKey: .value)
    }
  }

  private enum Action: Encodable {
    case probe(Probe)
  }

  private struct State: Encodable {
    var probes: [String: Probe]
    var action: Action
  }

  func testNoCodingLevelOutlivesTheEncoding() throws {
    let atRoot = Seen()
    let inEnum = Seen()
    let inDictionary = Seen()
    _ = try TraceValueEncoder().encode(Probe(seen: atRoot))
    _ = try TraceValueEncoder().encode(
      State(probes: ["a": Probe(seen: inDictionary)], action: .probe(Probe(seen: inEnum))))
    XCTAssertNil(atRoot.encoder, "the root level leaked")
    XCTAssertNil(inEnum.encoder, "a level inside an enum payload leaked")
    XCTAssertNil(inDictionary.encoder, "a level inside a dictionary leaked")
  }
}
