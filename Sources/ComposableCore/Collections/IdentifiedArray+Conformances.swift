extension IdentifiedArray: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { _ids.count }

  /// The element at a position. Reading only: writes go through `subscript(id:)`, so an
  /// element can never change its id behind the index's back.
  public subscript(position: Int) -> Element {
    _chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)]
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Equal elements in the same order. Chunks are laid out by position alone, so equal arrays
  /// have equal chunks, and a chunk two copies share compares in O(1).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._chunks == rhs._chunks
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes as `elements` (an array) does: the count, then each element.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids.count)
    for chunk in _chunks {
      for element in chunk { hasher.combine(element) }
    }
  }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let elements = try container.decode([Element].self)
    self.init(uniqueElements: elements)
    guard count == elements.count else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "IdentifiedArray holds \(elements.count - count) duplicate id(s)"
      )
    }
  }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: CustomReflectable {
  /// Reflects as the plain list of elements (dumps and diffs show elements, not the index).
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}
