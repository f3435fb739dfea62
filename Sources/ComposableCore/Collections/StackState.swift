/// The elements of a navigation stack, each with a `StackElementID` made when it was pushed.
///
/// ```swift
/// struct State { var path = StackState<Path.State>() }
/// enum Action { case path(StackActionOf<Path>) }
///
/// Reduce { state, action in … }
///   .forEach(\.path, action: \.path) { Path() }
///
/// state.path.append(.detail(Detail.State()))   // pushed as #0
/// state.path[id: 0, case: \.detail]?.title = "x"
/// state.path.pop(from: 0)                      // pops #0 and everything above it
/// ```
///
/// Pushing (`append`, `insert`, `init(_:)` …) takes ids from the `stackElementID` dependency in
/// force, so a reducer's pushes are numbered by its store.
public struct StackState<Element> {
  /// The ids, bottom of the stack first.
  public private(set) var ids: [StackElementID]
  /// The elements, in the order of `ids`.
  @usableFromInline var elements: [Element]

  /// An empty stack.
  public init() {
    ids = []
    elements = []
  }

  /// A stack of `elements`, bottom first, each given a new id.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    append(contentsOf: elements)
  }

  /// The element with an id. Setting an element for an id in the stack replaces it; setting
  /// `nil` removes it. Setting an element for an id not in the stack adds it on top in a test
  /// (to write an expected state), and is reported elsewhere.
  public subscript(id id: StackElementID) -> Element? {
    get {
      ids.firstIndex(of: id).map { elements[$0] }
    }
    set {
      if let index = ids.firstIndex(of: id) {
        if let newValue {
          elements[index] = newValue
        } else {
          ids.remove(at: index)
          elements.remove(at: index)
        }
      } else if let newValue {
        guard DependencyValues.inForce.context == .test else {
          reportIssue("Can't assign element at missing ID \(id).")
          return
        }
        ids.append(id)
        elements.append(newValue)
      }
    }
  }

  /// The payload of one case of the element with an id, for reading and writing.
  ///
  /// ```swift
  /// state.path[id: 0, case: \.detail]?.title = "Edited"
  /// ```
  ///
  /// Writing while the element is in another case is reported and ignored.
  public subscript<Case>(id id: StackElementID, case path: CaseKeyPath<Element, Case>) -> Case? {
    get { self[id: id, case: AnyCasePath(path)] }
    set { self[id: id, case: AnyCasePath(path)] = newValue }
  }

  /// The payload of one case of the element with an id, the case named by the case key path of
  /// one case (`\.detail`): the overload Swift picks for such a key path (see
  /// `CaseMemberKeyPath`).
  public subscript<Case>(
    id id: StackElementID, case member: CaseMemberKeyPath<Element, Case>
  ) -> Case? where Element: CasePathable {
    get { self[id: id, case: AnyCasePath(member)] }
    set { self[id: id, case: AnyCasePath(member)] = newValue }
  }

  private subscript<Case>(id id: StackElementID, case casePath: AnyCasePath<Element, Case>)
    -> Case?
  {
    get {
      self[id: id].flatMap(casePath.extract)
    }
    set {
      guard let index = ids.firstIndex(of: id), casePath.extract(elements[index]) != nil
      else {
        let current = self[id: id].map { describeCase($0) } ?? "nothing"
        reportIssue("Can't modify unrelated case: the element \(id) is \(current).")
        return
      }
      guard let newValue else { return }
      elements[index] = casePath.embed(newValue)
    }
  }

  /// Pops the element with an id and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = ids.firstIndex(of: id) else { return }
    removeSubrange(index...)
  }

  /// Pops every element above the element with an id.
  public mutating func pop(to id: StackElementID) {
    guard let index = ids.firstIndex(of: id) else { return }
    removeSubrange((index + 1)...)
  }

  /// Pushes an element with a given id (a `push` action carries its id).
  package mutating func push(_ element: Element, id: StackElementID) {
    ids.append(id)
    elements.append(element)
  }
}

extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { elements.count }

  public subscript(position: Int) -> Element {
    get { elements[position] }
    set { elements[position] = newValue }
  }

  public mutating func replaceSubrange(
    _ subrange: Range<Int>, with newElements: some Collection<Element>
  ) {
    let generator = DependencyValues.inForce.stackElementID
    ids.replaceSubrange(subrange, with: newElements.map { _ in generator() })
    elements.replaceSubrange(subrange, with: newElements)
  }

  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    ids.removeAll(keepingCapacity: keepCapacity)
    elements.removeAll(keepingCapacity: keepCapacity)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// The same ids with the same elements.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elements == rhs.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ids)
    hasher.combine(elements)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Encodable where Element: Encodable {
  /// Encodes as a list of `{"id": 0, "element": …}`, so a trace keeps the ids the actions
  /// name (upstream encodes the elements alone).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for (id, element) in zip(ids, elements) {
      try container.encode(StackEntry(id: id, element: element))
    }
  }
}

extension StackState: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      let entry = try container.decode(StackEntry<Element>.self)
      guard !ids.contains(entry.id) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "StackState holds the id \(entry.id) twice")
      }
      push(entry.element, id: entry.id)
    }
  }
}

/// One element of an encoded `StackState`.
private struct StackEntry<Element> {
  var id: StackElementID
  var element: Element
}

extension StackEntry: Encodable where Element: Encodable {}
extension StackEntry: Decodable where Element: Decodable {}

extension StackState: CustomStringConvertible {
  public var description: String { elements.description }
}

extension StackState: CustomReflectable {
  /// Reflects as a dictionary from id to element: dumps and diffs show `#0: …`.
  public var customMirror: Mirror {
    Mirror(
      self,
      unlabeledChildren: zip(ids, elements).map { (key: $0, value: $1) },
      displayStyle: .dictionary
    )
  }
}
