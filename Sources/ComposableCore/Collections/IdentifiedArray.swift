/// An ordered collection of identifiable elements with O(1) lookup by id.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
/// todos.append(Todo(id: 2, title: "Eggs"))
/// todos[id: 2]?.title = "Bread"
/// todos.map(\.title)  // ["Milk", "Bread"]
/// ```
///
/// Elements live in an array (so iteration and index access are array-fast) next to an index
/// from id to position. Removing or moving an element renumbers the positions after it, the
/// same O(n) an array pays to shift its tail.
public struct IdentifiedArray<ID: Hashable, Element: Identifiable> where Element.ID == ID {
  @usableFromInline package internal(set) var _ids: [ID]
  @usableFromInline package internal(set) var _elements: [Element]
  @usableFromInline var _positions: [ID: Int]

  /// An empty array.
  public init() {
    _ids = []
    _elements = []
    _positions = [:]
  }

  /// Creates an array from elements whose ids are unique; later duplicates are dropped.
  ///
  /// ```swift
  /// IdentifiedArrayOf(uniqueElements: [Todo(id: 1, title: "a")]).count  // 1
  /// ```
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    for element in elements {
      append(element)
    }
  }

  /// The ids in order.
  @inlinable public var ids: [ID] { _ids }

  /// The elements in order, as a plain array.
  public var elements: [Element] { _elements }

  /// The element with the given id; setting `nil` removes it, setting a value for a new id
  /// appends it.
  public subscript(id id: ID) -> Element? {
    @inlinable get {
      guard let position = _positions[id] else { return nil }
      return _elements[position]
    }
    set {
      if let newValue {
        if let position = _positions[id] {
          _elements[position] = newValue
        } else {
          append(newValue)
        }
      } else {
        remove(id: id)
      }
    }
  }

  /// Mutates the element with the given id in place (no copy of the element).
  ///
  /// Returns `nil` without calling `body` when no element has that id.
  @inlinable
  package mutating func modifyElement<R>(
    id: ID,
    _ body: (inout Element) throws -> R
  ) rethrows -> R? {
    guard let position = _positions[id] else { return nil }
    return try body(&_elements[position])
  }

  /// The position of the element with the given id.
  public func index(id: ID) -> Int? {
    _positions[id]
  }

  /// Appends an element unless one with its id exists.
  ///
  /// Returns whether it was inserted and the position of the element with that id.
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let position = _positions[element.id] {
      return (false, position)
    }
    _positions[element.id] = _elements.count
    _ids.append(element.id)
    _elements.append(element)
    return (true, _elements.count - 1)
  }

  /// Appends the elements whose ids are not present yet.
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements {
      append(element)
    }
  }

  /// Inserts an element at a position unless one with its id exists.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    if let position = _positions[element.id] {
      return (false, position)
    }
    _ids.insert(element.id, at: index)
    _elements.insert(element, at: index)
    renumber(from: index)
    return (true, index)
  }

  /// Removes and returns the element with the given id.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = _positions.removeValue(forKey: id) else { return nil }
    _ids.remove(at: position)
    let element = _elements.remove(at: position)
    renumber(from: position)
    return element
  }

  /// Removes and returns the element at a position.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = _elements.remove(at: index)
    _ids.remove(at: index)
    _positions.removeValue(forKey: element.id)
    renumber(from: index)
    return element
  }

  /// Removes the elements at the given offsets.
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let sorted = Set(offsets).sorted(by: >)
    guard let lowest = sorted.last else { return }
    for offset in sorted {
      _positions.removeValue(forKey: _ids[offset])
      _ids.remove(at: offset)
      _elements.remove(at: offset)
    }
    renumber(from: lowest)
  }

  /// Removes every element that satisfies the predicate.
  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    var kept: [Element] = []
    kept.reserveCapacity(_elements.count)
    for element in _elements where try !shouldRemove(element) {
      kept.append(element)
    }
    guard kept.count != _elements.count else { return }
    self = IdentifiedArray(uniqueElements: kept)
  }

  /// Removes every element.
  public mutating func removeAll() {
    self = IdentifiedArray()
  }

  /// Moves the elements at the given offsets to a destination offset, the way SwiftUI's
  /// `onMove` describes a move (the destination counts positions before the move).
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let sourceSet = Set(source)
    guard !sourceSet.isEmpty else { return }
    let moving = sourceSet.sorted().map { _elements[$0] }
    var remaining: [Element] = []
    remaining.reserveCapacity(_elements.count)
    var insertion = destination
    for (offset, element) in _elements.enumerated() {
      if sourceSet.contains(offset) {
        if offset < destination { insertion -= 1 }
      } else {
        remaining.append(element)
      }
    }
    remaining.insert(contentsOf: moving, at: Swift.min(Swift.max(insertion, 0), remaining.count))
    self = IdentifiedArray(uniqueElements: remaining)
  }

  /// Sorts the elements in place.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    let sorted = try _elements.sorted(by: areInIncreasingOrder)
    self = IdentifiedArray(uniqueElements: sorted)
  }

  private mutating func renumber(from start: Int) {
    guard start < _ids.count else { return }
    for position in start..<_ids.count {
      _positions[_ids[position]] = position
    }
  }
}

/// An identified array of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray: Sendable where ID: Sendable, Element: Sendable {}
