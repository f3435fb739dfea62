import ComposableCore

// ComposableCore does not make its routing actions Codable yet, and every fixture action must be
// (the Recorder encodes actions and typed replay decodes them). These conformances are written
// by hand in the shape Swift synthesizes for the enum, so that moving them into ComposableCore
// later keeps every recorded trace decodable.

extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: IdentifiedActionCodingKeys.self)
    switch self {
    case let .element(id, action):
      var element = container.nestedContainer(
        keyedBy: IdentifiedActionElementCodingKeys.self, forKey: .element)
      try element.encode(id, forKey: .id)
      try element.encode(action, forKey: .action)
    }
  }
}

extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: IdentifiedActionCodingKeys.self)
    guard container.allKeys == [.element] else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "IdentifiedAction expects exactly the key \"element\", found "
            + "\(container.allKeys.map(\.stringValue))"
        )
      )
    }
    let element = try container.nestedContainer(
      keyedBy: IdentifiedActionElementCodingKeys.self, forKey: .element)
    self = .element(
      id: try element.decode(ID.self, forKey: .id),
      action: try element.decode(Action.self, forKey: .action)
    )
  }
}

private enum IdentifiedActionCodingKeys: String, CodingKey {
  case element
}

private enum IdentifiedActionElementCodingKeys: String, CodingKey {
  case id
  case action
}
