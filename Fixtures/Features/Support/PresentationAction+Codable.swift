import ComposableCore

// ComposableCore does not make `PresentationAction` Codable yet (it does `IdentifiedAction`),
// and every fixture action must be: the Recorder encodes actions and typed replay decodes
// them. This conformance is written by hand in exactly the shape Swift synthesizes for the
// enum — {"dismiss":{}} and {"presented":{"_0":…}}, with keys named `CodingKeys`,
// `DismissCodingKeys` and `PresentedCodingKeys`, which is how TraceKit recognizes an enum case
// — so moving it into ComposableCore later keeps every recorded trace decodable.

extension PresentationAction {
  fileprivate enum CodingKeys: String, CodingKey {
    case dismiss
    case presented
  }

  fileprivate enum DismissCodingKeys: CodingKey {}

  fileprivate enum PresentedCodingKeys: String, CodingKey {
    case _0
  }
}

extension PresentationAction: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .dismiss:
      _ = container.nestedContainer(keyedBy: DismissCodingKeys.self, forKey: .dismiss)
    case let .presented(action):
      var presented = container.nestedContainer(
        keyedBy: PresentedCodingKeys.self, forKey: .presented)
      try presented.encode(action, forKey: ._0)
    }
  }
}

extension PresentationAction: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
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
        keyedBy: PresentedCodingKeys.self, forKey: .presented)
      self = .presented(try presented.decode(Action.self, forKey: ._0))
    }
  }
}
