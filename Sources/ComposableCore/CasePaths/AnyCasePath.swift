/// A value that embeds a payload into one case of an enum and extracts it back out.
///
/// Swift macros are not available here, so case paths are written by hand, once per case, as
/// a static property; daily use is then as short as with generated case paths:
///
/// ```swift
/// enum Action { case child(Child.Action), tapped }
///
/// extension AnyCasePath where Root == Action, Value == Child.Action {
///   static var child: Self {
///     .init(Action.child) { if case let .child(a) = $0 { a } else { nil } }
///   }
/// }
///
/// Scope(state: \.child, action: .child) { Child() }
/// ```
///
/// Two case paths built at the same source location compare equal, which is what lets
/// `Store.scope(state:action:)` cache child stores.
///
/// A case path knows the name of its case when it was written as a property named after the
/// case (as above, or as the `AllCasePaths` member a `CasePathable` conformance declares); the
/// reducer tree and cancellation labels use it.
public struct AnyCasePath<Root, Value>: Sendable {
  /// Puts a value into the case.
  public let embed: @Sendable (Value) -> Root
  /// Takes the value out of the case, or `nil` when the root is another case.
  public let extract: @Sendable (Root) -> Value?
  /// Where the case path was built: its identity for caching.
  @usableFromInline package let id: CasePathID
  /// Where the case's name comes from (see `name`).
  @usableFromInline let naming: CasePathNaming

  /// Creates a case path from an embedding function and an extracting function.
  ///
  /// ```swift
  /// let child = AnyCasePath<Action, Int>(embed: Action.child) {
  ///   if case let .child(value) = $0 { value } else { nil }
  /// }
  /// child.extract(.child(3))  // 3
  /// ```
  @inlinable
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column,
    function: StaticString = #function
  ) {
    self.embed = embed
    self.extract = extract
    self.id = CasePathID(name: nil, fileID: fileID, line: line, column: column)
    self.naming = .declaration(function)
  }

  /// Creates a case path from a case constructor and an extracting closure (the short form).
  ///
  /// ```swift
  /// AnyCasePath(Action.child) { if case let .child(v) = $0 { v } else { nil } }
  /// ```
  @inlinable
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column,
    function: StaticString = #function,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.init(
      embed: embed, extract: extract, fileID: fileID, line: line, column: column,
      function: function)
  }

  /// Creates a case path with an explicit name as its identity (for case paths built in loops
  /// or helpers, where the source location does not tell them apart).
  public init(
    name: String,
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
    self.id = CasePathID(name: name, fileID: "", line: 0, column: 0)
    self.naming = .name(name)
  }

  package init(
    id: CasePathID,
    naming: CasePathNaming = .none,
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
    self.id = id
    self.naming = naming
  }

  /// The name of the case, when it is known: `"child"` for a case path declared as a property
  /// `child` (the declaration is the case's name), `"destination.presented"` for the case key
  /// path `\.destination.presented`, the explicit name of `init(name:embed:extract:)`; `nil`
  /// for a case path built inside a function or a subscript.
  ///
  /// ```swift
  /// AnyCasePath<Parent.Action, Child.Action>.child.name  // "child"
  /// AnyCasePath(\Parent.Action.Cases.child).name          // "child"
  /// ```
  package var name: String? {
    naming.name
  }

  /// Composes this case path with one that goes deeper into the payload.
  ///
  /// ```swift
  /// let rowTap = AnyCasePath<Action, Row.Action>.row.appending(.tapped)
  /// ```
  public func appending<AppendedValue>(
    _ other: AnyCasePath<Value, AppendedValue>
  ) -> AnyCasePath<Root, AppendedValue> {
    let embed = self.embed
    let extract = self.extract
    return AnyCasePath<Root, AppendedValue>(
      id: CasePathID(appending: id, other.id),
      naming: naming.appending(other.naming),
      embed: { embed(other.embed($0)) },
      extract: { extract($0).flatMap(other.extract) }
    )
  }
}

/// The identity of a case path: where it was written, an explicit name, or the case key path
/// it was made from.
///
/// Keeps the `StaticString` of the file: case paths are built on every action (reducer bodies
/// are rebuilt per action), and a `String` would allocate each time.
@usableFromInline
package struct CasePathID: Hashable, Sendable {
  @usableFromInline var staticFileID: StaticString
  @usableFromInline package var line: UInt
  @usableFromInline package var column: UInt
  /// The explicit name, the appended case paths and the case key path, when there are any:
  /// most case paths are written at a source location and have none. Kept in one box so that
  /// a case path (copied several times into every reducer that uses it, on every action) is
  /// copied with one retain: with a `String?`, an array and a key path inline, each copy and
  /// destruction of an id went through its value witnesses (~140 instructions).
  @usableFromInline let extra: Extra?

  /// The parts most case paths do not have.
  @usableFromInline
  final class Extra: Sendable {
    let name: String?
    let appended: [CasePathID]
    let caseKeyPath: CaseKeyPathIdentity?

    init(name: String?, appended: [CasePathID], caseKeyPath: CaseKeyPathIdentity?) {
      self.name = name
      self.appended = appended
      self.caseKeyPath = caseKeyPath
    }
  }

  /// The identity of a case key path: the enum it starts at and the key paths to the
  /// `AllCasePaths` members it goes through (none for `\.self`). So `\.child` names one case
  /// whether it was formed through `Case` (`CaseKeyPath`) or to the member itself
  /// (`CaseMemberKeyPath`), and wherever it was written.
  struct CaseKeyPathIdentity: Hashable, Sendable {
    let root: ObjectIdentifier
    let members: [SendableKeyPath]
  }

  @inlinable
  package init(name: String?, fileID: StaticString, line: UInt, column: UInt) {
    self.staticFileID = fileID
    self.line = line
    self.column = column
    self.extra = name.map { Self.extra(name: $0) }
  }

  @usableFromInline
  static func extra(name: String) -> Extra {
    Extra(name: name, appended: [], caseKeyPath: nil)
  }

  /// The identity of the case path made from a case key path that starts at `root` and goes
  /// through the `AllCasePaths` members `members`, so that `\.child` written in two places, or
  /// formed in two ways, names one case.
  init(caseKeyPathFrom root: Any.Type, through members: [SendableKeyPath]) {
    staticFileID = ""
    line = 0
    column = 0
    extra = Extra(
      name: nil, appended: [],
      caseKeyPath: CaseKeyPathIdentity(root: ObjectIdentifier(root), members: members))
  }

  init(appending base: CasePathID, _ other: CasePathID) {
    staticFileID = base.staticFileID
    line = base.line
    column = base.column
    extra = Extra(
      name: base.name, appended: base.appended + [other] + other.appended,
      caseKeyPath: base.caseKeyPath)
  }

  /// The explicit name, if one was given.
  package var name: String? { extra?.name }
  /// The case paths appended to this one, in order.
  package var appended: [CasePathID] { extra?.appended ?? [] }
  /// The case key path (`\.child`) a case path was made from.
  var caseKeyPath: CaseKeyPathIdentity? { extra?.caseKeyPath }

  /// The file the case path was written in (empty for named case paths).
  package var fileID: String { "\(staticFileID)" }

  /// Whether `other` was made where this id was (the same literal file name, line and column)
  /// with the same extra parts (the same box, or none): such ids are equal. Cheap, unlike `==`,
  /// which compares names and file names as strings; equal ids made apart answer false.
  @inlinable
  package func isMade(like other: CasePathID) -> Bool {
    guard line == other.line, column == other.column, extra === other.extra,
      staticFileID.hasPointerRepresentation, other.staticFileID.hasPointerRepresentation
    else { return false }
    return staticFileID.utf8Start == other.staticFileID.utf8Start
      && staticFileID.utf8CodeUnitCount == other.staticFileID.utf8CodeUnitCount
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.line == rhs.line && lhs.column == rhs.column && lhs.name == rhs.name
      && lhs.caseKeyPath == rhs.caseKeyPath && lhs.appended == rhs.appended
      && lhs.fileID == rhs.fileID
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(line)
    hasher.combine(column)
    hasher.combine(caseKeyPath)
    hasher.combine(appended)
  }
}

extension AnyCasePath where Root == Value {
  /// The case path that embeds and extracts the root itself.
  public static var identity: AnyCasePath<Root, Root> {
    AnyCasePath(
      id: CasePathID(name: "\\.self", fileID: "", line: 0, column: 0),
      naming: .identity,
      embed: { $0 },
      extract: { $0 }
    )
  }
}
