extension IdentifiedArray: RandomAccessCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { _ids.count }
  /// O(1) without going through `distance(from:to:)` (a generic witness call when the
  /// element type is not known to the caller's module).
  @inlinable public var count: Int { _ids.count }

  /// The element at a position, for reading and writing.
  ///
  /// A write must keep the element's id: one that would change it is refused and reported
  /// (upstream stops the program), so an element can never change its id behind the index.
  ///
  /// ```swift
  /// state.rows[1].isPaused = true
  /// state.rows[1] = Row(id: 99)  // reported: "Element identity must remain constant …"
  /// ```
  public subscript(position: Int) -> Element {
    @inlinable get {
      _chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)]
    }
    @inlinable set {
      let id = _ids[position]
      guard newValue.id == id else {
        Self.reportIdentityChange(from: id, to: newValue.id, at: "[\(position)]")
        return
      }
      _chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)] = newValue
    }
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
  ///
  /// Inlinable, so that the module comparing a feature's state specializes it for the
  /// element type: left generic, each chunk's `!=` and each element's `==` went through the
  /// standard library's unspecialized code and a witness table.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs._chunks.count == rhs._chunks.count else { return false }
    // A chunk is one buffer reference: equal bits are the same storage, skipped without a
    // call; only chunks in different buffers compare their elements.
    return lhs._chunks.withUnsafeBytes { left in
      rhs._chunks.withUnsafeBytes { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress,
          leftBase != rightBase
        else { return true }
        for index in lhs._chunks.indices
        where !sameChunk(leftBase, rightBase, at: index) {
          if lhs._chunks[index] != rhs._chunks[index] { return false }
        }
        return true
      }
    }
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
