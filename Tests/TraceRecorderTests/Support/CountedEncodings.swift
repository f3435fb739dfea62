import Synchronization

/// A field that counts the calls of its `encode(to:)`: what the Recorder's writer encoded
/// again. Tests store 0 before the steps they look at and load the count after each.
struct Counted: Codable, Equatable, Sendable {
  static let encodings = Atomic<Int>(0)
  var value = 0

  func encode(to encoder: Encoder) throws {
    Self.encodings.add(1, ordering: .relaxed)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
  }
}
