#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns any `Encodable` value straight into a `TraceValue` tree, without a JSON detour.
///
/// ```swift
/// enum Mode: Codable { case loading, loaded(count: Int) }
/// struct State: Codable {
///   var title = "Inbox"
///   var tags = ["b": 2, "a": 1]
///   var mode = Mode.loading
/// }
/// print(try TraceValueEncoder().encode(State()))
/// // (title: "Inbox", tags: (a: 1, b: 2), mode: .loading)
/// ```
///
/// What the tree keeps:
/// - a synthesized enum with associated values becomes `.enumCase` (`.loaded(count: 3)`),
///   recognised by the shape synthesized `Codable` writes (see `EnumCaseDetector`);
/// - a `Dictionary` is written with its keys sorted (its iteration order changes from process
///   to process, and hashes must not): `String`- and `Int`-keyed ones as objects, others as
///   `[key, value, key, value, …]` sorted by the key's JSON text, as `Dictionary`'s own
///   `Codable` shapes them; a `Set` likewise becomes an array sorted by its elements' JSON text;
/// - `Data` becomes `.bytes`; `URL` (without a base URL) its absolute string; `UUID` its
///   string; `Date` ISO 8601 text in UTC whose fraction gives the same `Double` back
///   (`"2026-05-12T08:00:00.25Z"`; see `DateText`), or, for a date that has none (not finite,
///   outside the years 1…9999), its seconds since 2001;
/// - `nil` is `null`, and `Optional.some` of a value that itself encodes as `null`
///   (`Int??.some(nil)`) is `.enumCase("Optional.some", [_0: null])`, so nested optionals
///   decode back exactly;
/// - integers as `.int`, unsigned ones above `Int64.max` as `.uint`, `Float` as `.double`.
///
/// A key written twice by a hand-written `encode(to:)` appears twice (nothing is looked up
/// while writing: that keeps encoding linear).
public struct TraceValueEncoder: Sendable {
  public init() {}

  /// Encodes `value` into a tree.
  ///
  /// - Throws: `EncodingError` (with the coding path) from the value's `encode(to:)`, or when
  ///   a value asked for two different kinds of container at the same level.
  public func encode<T: Encodable>(_ value: T) throws -> TraceValue {
    try withRoot(replacingClassInstances: false) { root in
      try root.encodeAsRoot(value)
    }
  }

  /// Runs `body` with a root level writing through the thread's keyed containers
  /// (`KeyedContainerCache`), and gives both back after.
  @inline(__always)
  private func withRoot<Result>(
    replacingClassInstances: Bool, _ body: (TraceEncoding) throws -> Result
  ) rethrows -> Result {
    let containers = KeyedContainerCache.take()
    let root = TraceEncoding(
      parent: nil, key: nil, replacesClassInstances: replacingClassInstances,
      containers: containers)
    defer {
      containers?.giveBack()
      root.dismantle()
    }
    return try body(root)
  }

  /// Encodes `value` as values only: a class instance, or a value whose stored properties
  /// (an enum value's payload) may hold one by their types (found by `ReferenceProbe`), is not
  /// read but written as a placeholder string
  /// (`"<not recorded: Cache is a class>"`); returns where.
  ///
  /// A recorder encodes on its own thread what the main actor captured earlier: a value is a
  /// copy, but a class instance is the one the app keeps changing, so reading it there would
  /// race with the app and record what it became, not what it was.
  @usableFromInline
  package func encodeReplacingClassInstances<T: Encodable>(_ value: T) throws
    -> (value: TraceValue, replaced: [TracePath])
  {
    try withRoot(replacingClassInstances: true) { root in
      (try root.encodeAsRoot(value), root.replacedPaths)
    }
  }

  /// Encodes each of `elements` as `encodeReplacingClassInstances` encodes it alone, and hands
  /// `body` its position, its tree and where in it class instances were replaced.
  ///
  /// The same levels and containers write each element; what is done once for all of them is
  /// what depends on the type alone: the thread's container cache taken, the root level and
  /// the elements' level made (see `TraceEncoding.encodeChild(_:reusing:)`), the type's kind
  /// looked up (a locked dictionary) and its leaf checks. For a list of 10,000 todos, the
  /// look-ups taken once saved about a sixth of encoding each todo alone, and the level made
  /// once about 600 instructions a todo more.
  ///
  /// ```swift
  /// try TraceValueEncoder().encodeEachReplacingClassInstances(todos) { index, tree, _ in
  ///   trees.append(tree)
  /// }
  /// ```
  package func encodeEachReplacingClassInstances<Element: Encodable>(
    _ elements: UnsafeBufferPointer<Element>,
    _ body: (_ index: Int, _ value: TraceValue, _ replaced: [TracePath]) throws -> Void
  ) throws {
    guard let first = elements.first else { return }
    // A leaf, an optional, a set, a dictionary, a type holding class instances or one whose
    // values decide whether they do: each is encoded alone, as before.
    guard TraceEncoding.leaf(first) == nil, TypeKindCache.encodingKind(of: Element.self) == .plain
    else {
      for index in elements.indices {
        let (value, replaced) = try encodeReplacingClassInstances(elements[index])
        try body(index, value, replaced)
      }
      return
    }
    try withRoot(replacingClassInstances: true) { root in
      // `encodeValue` of a plain value at the root: its `encode(to:)` into a level of its own,
      // the same one for every element unless an element's encoding kept it.
      var level = TraceEncoding(parent: root, key: nil)
      for index in elements.indices {
        let value = try root.encodeChild(elements[index], reusing: &level)
        if root.replacedPaths.isEmpty {
          try body(index, value, [])
        } else {
          let replaced = root.replacedPaths
          root.replacedPaths = []
          try body(index, value, replaced)
        }
      }
    }
  }

  /// Whether this encoder writes `value` as exactly what its own keyed `encode(to:)` writes,
  /// field by field: not a type it encodes itself (`Date`, `UUID`, `Data`, `URL`), not an
  /// optional, a set or a dictionary (sorted or unwrapped here), not a class or a value holding
  /// class instances (a placeholder), nor a type whose values decide whether they hold one
  /// (see `TypeKindCache.decision(of:)`). The answer depends on the type alone. A recorder
  /// may then encode such a value's fields one by one and reuse the encodings of those that
  /// did not change.
  ///
  /// ```swift
  /// TraceValueEncoder.encodesFieldByField(Point(x: 1, y: 2))  // true
  /// TraceValueEncoder.encodesFieldByField(UUID())             // false
  /// ```
  package static func encodesFieldByField<T: Encodable>(_ value: T) -> Bool {
    if T.self == Date.self || T.self == UUID.self || T.self == Data.self || T.self == URL.self {
      return false
    }
    return TypeKindCache.encodingKind(of: T.self) == .plain
  }
}
