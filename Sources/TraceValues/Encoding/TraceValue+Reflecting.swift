extension TraceValue {
  /// A read-only tree of a value that is not `Encodable`, built with `Mirror` and marked
  /// `.reflected(typeName:)` so that no one tries to decode it.
  ///
  /// ```swift
  /// final class Session { var user = "blob"; var retries = 2 }
  /// print(TraceValue(reflecting: Session()))  // Session(user: "blob", retries: 2)
  /// ```
  ///
  /// Parts that are `Encodable` are encoded with `TraceValueEncoder` (so a `UUID` inside reads
  /// the same as elsewhere); structs, classes and tuples become objects (unlabelled tuple
  /// elements `_0`, `_1`, …); enums become `.enumCase` (several associated values as fields);
  /// optionals their value or `null`; collections arrays; sets and dictionaries are sorted by
  /// their elements' or keys' JSON text (their iteration order changes from process to
  /// process). A class instance met again on its own path is written as
  /// `"<cycle: TypeName>"`, and nesting deeper than 64 levels as `"<too deep: TypeName>"`.
  /// Anything else (closures, metatypes) is its `String(describing:)` text.
  ///
  /// `Mirror` costs about a microsecond per child: this is a fallback, not a hot path.
  public init(reflecting value: Any) {
    self.init(reflecting: value, fieldName: nil)
  }

  /// `init(reflecting:)` with the label of each stored property passed through `fieldName`
  /// (label, value): a module that knows its property wrappers shows `_sheet` as `sheet`.
  package init(reflecting value: Any, fieldName: (@Sendable (String, Any) -> String)?) {
    var reflector = Reflector()
    reflector.fieldName = fieldName
    self = .reflected(
      typeName: String(describing: type(of: value)), reflector.tree(value, depth: 0))
  }
}

struct Reflector {
  static let maximumDepth = 64

  private let encoder = TraceValueEncoder()
  /// Class instances on the current path, to stop at reference cycles.
  private var path: Set<ObjectIdentifier> = []
  /// Renames stored properties (label, value).
  var fieldName: (@Sendable (String, Any) -> String)?

  mutating func tree(_ value: Any, depth: Int) -> TraceValue {
    if let encodable = value as? any Encodable, let encoded = try? encoder.encode(encodable) {
      return encoded
    }
    let mirror = Mirror(reflecting: value)
    if depth >= Self.maximumDepth {
      return .string("<too deep: \(mirror.subjectType)>")
    }
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .null }
      return tree(wrapped, depth: depth + 1)
    case .struct, .tuple:
      return .object(fields(of: mirror, depth: depth))
    case .class:
      let id = ObjectIdentifier(value as AnyObject)
      if path.contains(id) { return .string("<cycle: \(mirror.subjectType)>") }
      path.insert(id)
      defer { path.remove(id) }
      var all = fields(of: mirror, depth: depth)
      // Stored properties of superclasses come first, as they are laid out.
      var ancestor = mirror.superclassMirror
      while let superMirror = ancestor {
        all.insert(contentsOf: fields(of: superMirror, depth: depth), at: 0)
        ancestor = superMirror.superclassMirror
      }
      return .object(all)
    case .enum:
      guard let payload = mirror.children.first else {
        return .enumCase(String(describing: value), [])
      }
      let name = payload.label ?? String(describing: value)
      let payloadMirror = Mirror(reflecting: payload.value)
      if payloadMirror.displayStyle == .tuple {
        return .enumCase(name, fields(of: payloadMirror, depth: depth + 1))
      }
      return .enumCase(name, [TraceField("_0", tree(payload.value, depth: depth + 1))])
    case .collection:
      return .array(mirror.children.map { tree($0.value, depth: depth + 1) })
    case .set:
      return .array(sortedByJSON(mirror.children.map { tree($0.value, depth: depth + 1) }))
    case .dictionary:
      return dictionary(mirror, depth: depth)
    default:
      return .string(String(describing: value))
    }
  }

  private mutating func fields(of mirror: Mirror, depth: Int) -> [TraceField] {
    mirror.children.enumerated().map { position, child in
      var label = child.label ?? "_\(position)"
      // Mirror labels unlabelled tuple elements ".0", ".1".
      if label.hasPrefix("."), label.dropFirst().allSatisfy(\.isNumber) {
        label = "_" + label.dropFirst()
      } else if let fieldName, child.label != nil {
        label = fieldName(label, child.value)
      }
      return TraceField(label, tree(child.value, depth: depth + 1))
    }
  }

  private mutating func dictionary(_ mirror: Mirror, depth: Int) -> TraceValue {
    var entries: [(key: TraceValue, value: TraceValue)] = []
    for child in mirror.children {
      let pair = Mirror(reflecting: child.value).children.map(\.value)
      guard pair.count == 2 else { continue }
      entries.append((tree(pair[0], depth: depth + 1), tree(pair[1], depth: depth + 1)))
    }
    if entries.allSatisfy({ $0.key.stringValue != nil }) {
      let fields = entries.map { TraceField($0.key.stringValue ?? "", $0.value) }
      return .object(fields.sorted { $0.key < $1.key })
    }
    let sorted = entries.map { ($0, $0.key.jsonString) }.sorted { $0.1 < $1.1 }
    return .array(sorted.flatMap { [$0.0.key, $0.0.value] })
  }

  private func sortedByJSON(_ values: [TraceValue]) -> [TraceValue] {
    values.map { ($0, $0.jsonString) }.sorted { $0.1 < $1.1 }.map(\.0)
  }
}
