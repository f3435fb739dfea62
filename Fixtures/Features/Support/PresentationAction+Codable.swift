import ComposableCore

// See IdentifiedAction+Codable.swift for why these live here; the shape is the one Swift
// synthesizes: {"dismiss":{}} and {"presented":{"_0":…}}.

extension PresentationAction: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: PresentationActionCodingKeys.self)
    switch self {
    case .dismiss:
      _ = container.nestedContainer(keyedBy: PresentationActionEmptyKeys.self, forKey: .dismiss)
    case let .presented(action):
      var presented = container.nestedContainer(
        keyedBy: PresentationActionPayloadKeys.self, forKey: .presented)
      try presented.encode(action, forKey: ._0)
    }
  }
}

extension PresentationAction: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: PresentationActionCodingKeys.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "PresentationAction expects one of the keys \"dismiss\" or "
            + "\"presented\", found \(container.allKeys.map(\.stringValue))"
        )
      )
    }
    switch key {
    case .dismiss:
      self = .dismiss
    case .presented:
      let presented = try container.nestedContainer(
        keyedBy: PresentationActionPayloadKeys.self, forKey: .presented)
      self = .presented(try presented.decode(Action.self, forKey: ._0))
    }
  }
}

private enum PresentationActionCodingKeys: String, CodingKey {
  case dismiss
  case presented
}

private enum PresentationActionPayloadKeys: String, CodingKey {
  case _0
}

private enum PresentationActionEmptyKeys: CodingKey {}
