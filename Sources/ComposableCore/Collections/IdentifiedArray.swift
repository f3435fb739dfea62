/// An ordered collection of identifiable elements with O(1) lookup by id.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
/// todos.append(Todo(id: 2, title: "Eggs"))
/// todos[id: 2]?.title = "Bread"
/// todos.map(\.title)  // ["Milk", "Bread"]
/// ```
///
/// Elements live in chunks of 64 (chunk `k` holds positions `64k ..< 64k + 64`; every chunk is
/// full but the last), each chunk its own copy-on-write array, next to the ids in order and an
/// index from id to position. A copy shares every chunk, so changing one element of a copy
/// (the store's state while a recorder still holds the previous one) copies that element's
/// chunk and the small list of chunks, not the whole collection. Inserting or removing an
/// element renumbers and re-chunks the positions after it, the same O(n) an array pays to
/// shift its tail.
public struct IdentifiedArray<ID: Hashable, Element: Identifiable> where Element.ID == ID {
  @usableFromInline package internal(set) var _ids: [ID]
  /// The elements, `chunkLength` per chunk; never an empty chunk.
  @usableFromInline package internal(set) var _chunks: [[Element]]
  @usableFromInline var _positions: [ID: Int]

  /// The number of elements per chunk.
  @inlinable package static var chunkLength: Int { 1 << chunkShift }
  @inlinable static var chunkShift: Int { 6 }

  /// An empty array.
  @inlinable
  public init() {
    _ids = []
    _chunks = []
    _positions = [:]
  }

  /// Creates an array from elements whose ids are unique; later duplicates are dropped.
  ///
  /// ```swift
  /// IdentifiedArrayOf(uniqueElements: [Todo(id: 1, title: "a")]).count  // 1
  /// ```
  @inlinable
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    for element in elements {
      append(element)
    }
  }

  /// The ids in order.
  @inlinable public var ids: [ID] { _ids }

  /// The elements in order, as a plain array (O(1) up to 64 elements, else one copy).
  @inlinable
  public var elements: [Element] {
    if _chunks.count <= 1 { return _chunks.first ?? [] }
    var elements: [Element] = []
    elements.reserveCapacity(_ids.count)
    for chunk in _chunks { elements.append(contentsOf: chunk) }
    return elements
  }

  /// The element with the given id; setting `nil` removes it, setting a value for a new id
  /// appends it.
  ///
  /// An element whose id is not `id` is refused and reported (upstream stops the program):
  ///
  /// ```swift
  /// todos[id: 1] = Todo(id: 2, title: "x")
  /// // reported: Element identity must remain constant: an element with id 2 was written
  /// // at [id: 1] of an IdentifiedArray<Int, Todo>; the write was ignored.
  /// ```
  public subscript(id id: ID) -> Element? {
    @inlinable get {
      guard let position = _positions[id] else { return nil }
      return _chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)]
    }
    @inlinable set {
      if let newValue {
        guard newValue.id == id else {
          Self.reportIdentityChange(from: id, to: newValue.id, at: "[id: \(id)]")
          return
        }
        if let position = _positions[id] {
          _chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)] = newValue
        } else {
          append(newValue)
        }
      } else {
        remove(id: id)
      }
    }
  }

  /// Mutates the element with the given id in place (no copy of the element; a copy of its
  /// chunk only if a copy of this array shares it).
  ///
  /// Returns `nil` without calling `body` when no element has that id.
  @inlinable
  package mutating func modifyElement<R>(
    id: ID,
    _ body: (inout Element) throws -> R
  ) rethrows -> R? {
    guard let position = _positions[id] else { return nil }
    return try body(&_chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)])
  }

  /// The position of the element with the given id.
  @inlinable
  public func index(id: ID) -> Int? {
    _positions[id]
  }

  /// The ids of `earlier` (this array's ids at an earlier time) that it no longer holds, in
  /// their order.
  ///
  /// The ids both lists have at their start and at their end, in the same places, are skipped
  /// (ids are unique in each list, so an id of the rest of `earlier` can only be in the rest of
  /// this array); the rest is searched by comparison when it is short (a move, an insertion,
  /// a removal touch a few places), through the id table otherwise. Each id looked up in the
  /// table hashes it: a move of one row among eight looked all eight up (about 3,700
  /// instructions for `UUID`s).
  ///
  /// ```swift
  /// var rows: IdentifiedArrayOf<Row> = [a, b, c, d]
  /// let before = rows.ids
  /// rows.move(fromOffsets: [0], toOffset: 3); rows.remove(id: c.id)
  /// rows.idsRemoved(since: before)  // [c.id]
  /// ```
  @inlinable
  package func idsRemoved(since earlier: [ID]) -> [ID] {
    let now = _ids
    var start = 0
    let shorter = Swift.min(earlier.count, now.count)
    while start < shorter, earlier[start] == now[start] {
      start += 1
    }
    var earlierEnd = earlier.count
    var nowEnd = now.count
    while earlierEnd > start, nowEnd > start, earlier[earlierEnd - 1] == now[nowEnd - 1] {
      earlierEnd -= 1
      nowEnd -= 1
    }
    let rest = now[start..<nowEnd]
    if rest.count <= 16 {
      return earlier[start..<earlierEnd].filter { !rest.contains($0) }
    }
    return earlier[start..<earlierEnd].filter { _positions[$0] == nil }
  }

  /// Appends an element unless one with its id exists.
  ///
  /// Returns whether it was inserted and the position of the element with that id.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let position = _positions[element.id] {
      return (false, position)
    }
    let position = _ids.count
    _positions[element.id] = position
    _ids.append(element.id)
    appendToChunks(element)
    return (true, position)
  }

  /// Appends the elements whose ids are not present yet.
  @inlinable
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements {
      append(element)
    }
  }

  /// Inserts an element at a position unless one with its id exists.
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    if let position = _positions[element.id] {
      return (false, position)
    }
    _ids.insert(element.id, at: index)
    rechunk(from: index) { tail, offset in tail.insert(element, at: offset) }
    renumber(from: index)
    return (true, index)
  }

  /// Removes and returns the element with the given id.
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = _positions.removeValue(forKey: id) else { return nil }
    _ids.remove(at: position)
    let element = rechunk(from: position) { tail, offset in tail.remove(at: offset) }
    renumber(from: position)
    return element
  }

  /// Removes and returns the element at a position.
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = rechunk(from: index) { tail, offset in tail.remove(at: offset) }
    _ids.remove(at: index)
    _positions.removeValue(forKey: element.id)
    renumber(from: index)
    return element
  }

  /// Removes the elements at the given offsets.
  @inlinable
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let sorted = Set(offsets).sorted(by: >)
    guard let lowest = sorted.last else { return }
    for offset in sorted {
      _positions.removeValue(forKey: _ids[offset])
      _ids.remove(at: offset)
    }
    rechunk(from: lowest) { tail, start in
      for offset in sorted { tail.remove(at: offset - lowest + start) }
    }
    renumber(from: lowest)
  }

  /// Removes every element that satisfies the predicate.
  @inlinable
  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    var kept: [Element] = []
    kept.reserveCapacity(_ids.count)
    for chunk in _chunks {
      for element in chunk where try !shouldRemove(element) {
        kept.append(element)
      }
    }
    guard kept.count != _ids.count else { return }
    self = IdentifiedArray(uniqueElements: kept)
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll() {
    self = IdentifiedArray()
  }

  /// Moves the elements at the given offsets to a destination offset, the way SwiftUI's
  /// `onMove` describes a move (the destination counts positions before the move).
  ///
  /// Offsets that come as a run (one offset, or consecutive ones in increasing order, the shape
  /// of nearly every move) rotate only the positions between the run and its destination, in
  /// place: only those ids are renumbered and only their chunks change. Any other shape is
  /// gathered into a set as it is read and the array is rebuilt in its new order.
  @inlinable
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    var offsets = source.makeIterator()
    guard let first = offsets.next() else { return }
    // The run read so far is `first...last`.
    var last = first
    var next = offsets.next()
    if first >= 0, first < _ids.count {
      while let offset = next, offset == last + 1, offset < _ids.count {
        last = offset
        next = offsets.next()
      }
      if next == nil {
        moveRun(first..<last + 1, toOffset: destination)
        return
      }
    }
    var sourceSet = Set(first...last)
    while let offset = next {
      sourceSet.insert(offset)
      next = offsets.next()
    }
    move(fromOffsetSet: sourceSet, toOffset: destination)
  }

  /// `move(fromOffsets:toOffset:)` of consecutive offsets inside the array: the positions from
  /// the run to where it lands are rotated in place, and only their ids renumbered.
  @inlinable
  mutating func moveRun(_ run: Range<Int>, toOffset destination: Int) {
    // The run lands at the destination less its own offsets before the destination, kept
    // inside the array (a destination before 0 or past the end moves it to that end).
    let landing = Swift.min(Swift.max(destination, 0), _ids.count)
    let target = landing - Swift.min(Swift.max(landing - run.lowerBound, 0), run.count)
    guard target != run.lowerBound else { return }
    // Rotating `lower..<upper` to start at `middle` puts the run at `target`.
    let (lower, middle, upper) =
      target < run.lowerBound
      ? (target, run.lowerBound, run.upperBound)
      : (run.lowerBound, run.upperBound, target + run.count)
    _ids.withUnsafeMutableBufferPointer { ids in
      Self.rotate(ids, lower..<upper, toStartAt: middle)
    }
    let chunk = lower &>> Self.chunkShift
    if chunk == (upper - 1) &>> Self.chunkShift {
      let start = chunk &<< Self.chunkShift
      _chunks[chunk].withUnsafeMutableBufferPointer { elements in
        Self.rotate(elements, lower - start..<upper - start, toStartAt: middle - start)
      }
    } else {
      var rotated: [Element] = []
      rotated.reserveCapacity(upper - lower)
      for part in [middle..<upper, lower..<middle] {
        for position in part {
          rotated.append(_chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)])
        }
      }
      for (position, element) in zip(lower..<upper, rotated) {
        _chunks[position &>> Self.chunkShift][position & (Self.chunkLength - 1)] = element
      }
    }
    renumber(lower..<upper)
  }

  /// Rotates `range` of `buffer` so that `middle` comes first: three reversals by swaps in
  /// place, no element copied out.
  @inlinable
  static func rotate<T>(
    _ buffer: UnsafeMutableBufferPointer<T>, _ range: Range<Int>, toStartAt middle: Int
  ) {
    reverse(buffer, range.lowerBound..<middle)
    reverse(buffer, middle..<range.upperBound)
    reverse(buffer, range)
  }

  /// Reverses `range` of `buffer` in place.
  @inlinable
  static func reverse<T>(_ buffer: UnsafeMutableBufferPointer<T>, _ range: Range<Int>) {
    var low = range.lowerBound
    var high = range.upperBound - 1
    while low < high {
      buffer.swapAt(low, high)
      low += 1
      high -= 1
    }
  }

  /// `move(fromOffsets:toOffset:)` of any set of offsets: the array is rebuilt in its new order.
  @inlinable
  mutating func move(fromOffsetSet sourceSet: Set<Int>, toOffset destination: Int) {
    let all = elements
    let moving = sourceSet.sorted().map { all[$0] }
    var remaining: [Element] = []
    remaining.reserveCapacity(all.count)
    var insertion = destination
    for (offset, element) in all.enumerated() {
      if sourceSet.contains(offset) {
        if offset < destination { insertion -= 1 }
      } else {
        remaining.append(element)
      }
    }
    remaining.insert(contentsOf: moving, at: Swift.min(Swift.max(insertion, 0), remaining.count))
    reorder(remaining)
  }

  /// Sorts the elements in place.
  @inlinable
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    let sorted = try elements.sorted(by: areInIncreasingOrder)
    reorder(sorted)
  }

  /// Puts the elements in the order of `permuted` (the same elements, reordered): the ids and
  /// chunks are rebuilt, and only the ids whose position changed are renumbered. Rebuilding
  /// from scratch hashed every id again into a table that resized as it grew (a move in a list
  /// of 8 cost ~18,000 instructions).
  @inlinable
  mutating func reorder(_ permuted: [Element]) {
    var ids: [ID] = []
    ids.reserveCapacity(permuted.count)
    for element in permuted { ids.append(element.id) }
    _chunks.removeAll(keepingCapacity: true)
    appendChunks(of: permuted)
    for (position, id) in ids.enumerated() where _ids[position] != id {
      _positions[id] = position
    }
    _ids = ids
  }

  /// Reports a write that would change an element's id, the misuse upstream traps on.
  @usableFromInline
  static func reportIdentityChange(from id: ID, to newID: ID, at place: String) {
    reportIssue(
      """
      Element identity must remain constant: an element with id \(String(reflecting: newID)) \
      was written at \(place) of an \(Self.self) (the element there has id \
      \(String(reflecting: id))); the write was ignored.
      """
    )
  }

  @inlinable
  mutating func appendToChunks(_ element: Element) {
    if let last = _chunks.indices.last, _chunks[last].count < Self.chunkLength {
      _chunks[last].append(element)
    } else {
      var chunk: [Element] = []
      chunk.reserveCapacity(Self.chunkLength)
      chunk.append(element)
      _chunks.append(chunk)
    }
  }

  /// Applies `edit` to the elements from `position`'s chunk to the end (its second argument is
  /// `position`'s offset in them) and chunks them again: O(count - position + 64).
  @inlinable
  @discardableResult
  mutating func rechunk<R>(from position: Int, _ edit: (inout [Element], Int) -> R) -> R {
    let first = Swift.min(Swift.max(position, 0) &>> Self.chunkShift, _chunks.count)
    var tail: [Element] = []
    tail.reserveCapacity((_chunks.count - first) * Self.chunkLength + 1)
    for chunk in _chunks[first...] { tail.append(contentsOf: chunk) }
    _chunks.removeSubrange(first...)
    let result = edit(&tail, position - first * Self.chunkLength)
    appendChunks(of: tail)
    return result
  }

  /// Appends `elements` to the chunks, a full chunk at a time (the last one may be short).
  @inlinable
  mutating func appendChunks(of elements: [Element]) {
    var start = 0
    while start < elements.count {
      let end = Swift.min(start + Self.chunkLength, elements.count)
      var chunk: [Element] = []
      chunk.reserveCapacity(Self.chunkLength)
      chunk.append(contentsOf: elements[start..<end])
      _chunks.append(chunk)
      start = end
    }
  }

  @inlinable
  mutating func renumber(from start: Int) {
    guard start < _ids.count else { return }
    renumber(start..<_ids.count)
  }

  /// Sets the index entry of the ids at `positions` to their position.
  @inlinable
  mutating func renumber(_ positions: Range<Int>) {
    for position in positions {
      _positions[_ids[position]] = position
    }
  }
}

/// An identified array of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray: Sendable where ID: Sendable, Element: Sendable {}
