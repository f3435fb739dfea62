@_spi(Reflection) import Swift

/// Finds class instances in a type's values: the one thing a recorder cannot compare by the
/// value's bits (a class changed in place keeps them), whether or not the value's
/// `encode(to:)` shows them.
///
/// ```swift
/// final class Cache { var hits = 0 }
/// struct Model: Encodable { var name = "a"; let cache = Cache()
///   func encode(to encoder: Encoder) throws { … writes name and cache.hits … } }
/// enum Count: Encodable { case plain(Int), boxed(Cache) }
/// ReferenceProbe.holding(Model.self)    // .references
/// ReferenceProbe.holding(Count.self)    // .references: one case holds a class
/// ReferenceProbe.caseHoldings(Count.self)  // [.nothing, .references]: by the value's case
/// ReferenceProbe.holding([Cache].self)  // .nothing: elements are probed one by one
/// ```
///
/// It looks at one level: the type itself, or its stored properties (every case's payload of
/// an enum, each value of a case that has several; a tuple's elements), through the element
/// types of `Optional`, `Array`, `ContiguousArray`, `Set` and the key and value types of
/// `Dictionary` inside them. Deeper values the encoder meets are probed in turn. Collections
/// and optionals at the top are left to their elements. A stored property of a struct type is
/// a deeper value; one of a tuple type is not (the encoder never meets a tuple on its own, so
/// the value's `encode(to:)` reads `pair.1` as it reads a property): each of its elements is a
/// position of its own, as a stored property is.
///
/// The type decides, except where it cannot say:
/// - a position whose type is an existential (`Any`, `any P`, `any Error`) holds whatever a
///   value puts there (a class-bound existential holds a class): `.eachValue`, and each value
///   decides by the type of what it holds there (`valueProbe(_:)`);
/// - a type that reflects itself (`CustomReflectable`) and whose stored properties hold class
///   instances or existentials speaks for its values through its mirror: `.eachValue`, probed
///   through its mirror; a `CopyOnWriteWrapper` holds what its stored value type holds; a
///   type that `ReflectsAsItsValue` (a binding: its key path and its value) is decided for
///   each value by the value it carries (`reflectedValueHoldsReferences(_:as:)`);
/// - an enum whose cases the runtime's metadata does not list (see `TypeMetadata`):
///   `.eachValue`, its value's case probed.
///
/// An enum whose cases hold different things is decided by each value's case
/// (`caseHoldings(_:)`): only the values of a case that holds class instances are.
enum ReferenceProbe {
  /// What the values of a type hold, as far as the type says.
  enum Holding: Equatable {
    case nothing
    /// Class instances, in every value or in some.
    case references
    /// Only each value can say (`holdsReferences(_:)`).
    case eachValue

    /// What a type holds when it holds what `self` and `other` hold.
    func and(_ other: Holding) -> Holding {
      if self == .references || other == .references { return .references }
      return self == .eachValue || other == .eachValue ? .eachValue : .nothing
    }
  }

  /// What the values of `type` hold, from the type: its kind and, for a struct, an enum or a
  /// tuple, the types at its positions.
  static func holding(_ type: Any.Type) -> Holding {
    if type is AnyClass { return .references }
    if standardContainer(type) != nil { return .nothing }
    var holding = Holding.nothing
    switch TypeMetadata.kind(of: type) {
    case .class, .foreignClass, .objcClassWrapper:
      return .references
    case .struct, .tuple:
      holding = fieldsHolding(type)
    case .enum:
      guard let payloads = TypeMetadata.enumPayloadTypes(of: type) else { return .eachValue }
      for payload in payloads { holding = holding.and(payloadHolding(payload)) }
    default:
      return .nothing
    }
    // Protocol casts only here, where few types come: a first cast that fails searches every
    // conformance record of the process (about a million instructions a type).
    guard holding != .nothing else { return .nothing }
    if let wrapper = type as? any CopyOnWriteWrapper.Type {
      return Self.holding(wrapper.storedValueType)
    }
    if type is any ReflectsAsItsValue.Type { return .eachValue }
    return type is any CustomReflectable.Type ? .eachValue : holding
  }

  /// What each case of an enum type holds, by the tag of its values
  /// (`TypeMetadata.enumTag(of:)`), when its cases do not all hold the same: a value of a
  /// case whose payload holds no class instance is read as any value is, though another case
  /// of its type holds one. Nil for any other type, for an enum whose cases hold the same
  /// (`holding(_:)` says what), and for one that speaks through its mirror.
  ///
  /// ```swift
  /// enum Action { case tap, load(Int), log(Cache) }
  /// ReferenceProbe.caseHoldings(Action.self)  // [.nothing, .references, .nothing]: load, log, tap
  /// ```
  static func caseHoldings(_ type: Any.Type) -> [Holding]? {
    guard TypeMetadata.kind(of: type) == .enum,
      let payloads = TypeMetadata.enumPayloadTypes(of: type)
    else { return nil }
    let holdings =
      payloads.map(payloadHolding)
      + repeatElement(.nothing, count: TypeMetadata.enumCaseCounts(of: type).empty)
    guard holdings.contains(where: { $0 != holdings[0] }),
      !(type is any CopyOnWriteWrapper.Type), !(type is any ReflectsAsItsValue.Type),
      !(type is any CustomReflectable.Type)
    else { return nil }
    return holdings
  }

  /// What an enum case's payload holds: its values when it has several (not a deeper tuple),
  /// else the payload as a position.
  private static func payloadHolding(_ payload: Any.Type) -> Holding {
    TypeMetadata.kind(of: payload) == .tuple
      ? fieldsHolding(payload) : position(payload, depth: 0)
  }

  /// An `Optional`, `Array`, `ContiguousArray` or `Set` (its element type) or a `Dictionary`
  /// (its key and value types), known by its type descriptor: no protocol cast.
  private static func standardContainer(_ type: Any.Type) -> (Any.Type, Any.Type?)? {
    switch TypeMetadata.kind(of: type) {
    case .optional:
      return (TypeMetadata.genericArgument(0, of: type), nil)
    case .struct:
      let descriptor = TypeMetadata.descriptor(of: type)
      if descriptor == dictionaryDescriptor {
        return (
          TypeMetadata.genericArgument(0, of: type), TypeMetadata.genericArgument(1, of: type)
        )
      }
      guard elementsDescriptors.contains(descriptor) else { return nil }
      return (TypeMetadata.genericArgument(0, of: type), nil)
    default:
      return nil
    }
  }

  private static let elementsDescriptors = [
    TypeMetadata.descriptor(of: [Int].self),
    TypeMetadata.descriptor(of: ContiguousArray<Int>.self),
    TypeMetadata.descriptor(of: Set<Int>.self),
  ]
  private static let dictionaryDescriptor = TypeMetadata.descriptor(of: [Int: Int].self)

  /// How each value of a type that `holding(_:)` calls `.eachValue` is probed.
  enum ValueProbe {
    /// By the types the value's existentials hold now, read from their containers at these
    /// byte offsets in the value (`existentialsHoldReferences(_:at:)`): the type's other
    /// positions hold nothing.
    case existentials([Int])
    /// By what the value it carries holds (`reflectedValueHoldsReferences(_:as:)`).
    case reflectedValue(any ReflectsAsItsValue.Type)
    /// Through its mirror (`holdsReferences(_:)`).
    case mirror
  }

  /// How each value of `type`, a type `holding(_:)` calls `.eachValue`, is probed: a struct
  /// (not reflecting itself) whose positions are opaque existentials (`any P`, `Any`; not
  /// `any Error`, whose box the runtime opens) directly or in tuples, and hold nothing
  /// elsewhere, by the types in those existentials; a type that `ReflectsAsItsValue` by that
  /// value; any other through its mirror.
  static func valueProbe(_ type: Any.Type) -> ValueProbe {
    if let carrier = type as? any ReflectsAsItsValue.Type { return .reflectedValue(carrier) }
    guard TypeMetadata.kind(of: type) == .struct, !(type is any CustomReflectable.Type),
      let offsets = existentialOffsets(type, at: 0), !offsets.isEmpty
    else { return .mirror }
    return .existentials(offsets)
  }

  /// The byte offsets of the opaque existentials among the stored properties of a struct or
  /// the elements of a tuple at `base`, nil when another position holds something.
  private static func existentialOffsets(_ type: Any.Type, at base: Int) -> [Int]? {
    var offsets: [Int]? = []
    let complete = _forEachField(of: type, options: []) { _, offset, field, _ in
      switch TypeMetadata.kind(of: field) {
      case .existential where TypeMetadata.isOpaqueExistential(field):
        offsets?.append(base + offset)
      case .tuple:
        guard let inner = existentialOffsets(field, at: base + offset) else { offsets = nil; break }
        offsets?.append(contentsOf: inner)
      default:
        if position(field, depth: 0) != .nothing { offsets = nil }
      }
      return offsets != nil
    }
    return complete ? offsets : nil
  }

  /// Whether the opaque existentials at `offsets` in `value` hold class instances, each by
  /// the type of what it holds now (`position(_:depth:)`); nil when one holds what only its
  /// mirror can say (a collection of existentials), and none holds a class.
  static func existentialsHoldReferences<T>(_ value: T, at offsets: [Int]) -> Bool? {
    withUnsafePointer(to: value) { pointer in
      var holds: Bool? = false
      for offset in offsets {
        switch position(TypeMetadata.openedType(at: UnsafeRawPointer(pointer) + offset), depth: 0) {
        case .nothing: continue
        case .references: return true
        case .eachValue: holds = nil
        }
      }
      return holds
    }
  }

  /// Whether `value` reads class instances through the value it carries: never when that
  /// value is `Encodable` (the encoder meets it, and decides it where it meets it, as any
  /// value); otherwise when it holds one at any depth (its text reads all of it). `carrier` is
  /// `T`, as `valueProbe(_:)` found it.
  static func reflectedValueHoldsReferences<T>(
    _ value: T, as carrier: any ReflectsAsItsValue.Type
  ) -> Bool {
    func reflected<Carrier: ReflectsAsItsValue>(_: Carrier.Type) -> Any {
      withUnsafePointer(to: value) {
        UnsafeRawPointer($0).assumingMemoryBound(to: Carrier.self).pointee.reflectedValue
      }
    }
    let carried = reflected(carrier)
    return !(carried is any Encodable) && holdsReferencesAtAnyDepth(carried)
  }

  /// Whether `value` holds a class instance anywhere inside it: what `String(reflecting:)`
  /// reads. A mirror a level: only for a carried value that is not `Encodable`.
  private static func holdsReferencesAtAnyDepth(_ value: Any) -> Bool {
    position(type(of: value), depth: 0) == .references
      || Mirror(reflecting: value).children.contains { holdsReferencesAtAnyDepth($0.value) }
  }

  /// Whether `value` holds class instances at the positions of its type: its mirror's
  /// children, each decided by its own type (an existential's, by the type of what it holds).
  /// A mirror per value: for the types `valueProbe(_:)` finds no other way for.
  static func holdsReferences(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .class:
      return true
    case .struct, .tuple, .enum:
      return mirror.children.contains { holdsReferences($0.value, depth: 0) }
    default:
      return false
    }
  }

  private static func holdsReferences(_ value: Any, depth: Int) -> Bool {
    switch position(type(of: value), depth: depth) {
    case .nothing:
      return false
    case .references:
      return true
    case .eachValue:
      // A collection or optional of existentials: each element, by what it holds.
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .dictionary else {
        return mirror.children.contains { holdsReferences($0.value, depth: depth + 1) }
      }
      return mirror.children.contains {
        Mirror(reflecting: $0.value).children.contains {
          holdsReferences($0.value, depth: depth + 1)
        }
      }
    }
  }

  /// What the stored properties of a struct, or the elements of a tuple, hold, at `depth`
  /// levels of optionals and collections below the value probed.
  private static func fieldsHolding(_ type: Any.Type, depth: Int = 0) -> Holding {
    var holding = Holding.nothing
    let complete = _forEachField(of: type, options: []) { _, _, field, _ in
      holding = holding.and(position(field, depth: depth))
      return holding != .references
    }
    return complete || holding == .references ? holding : .eachValue
  }

  /// What a value of `type` holds as a stored property (or payload, or element) at `depth`
  /// levels of optionals and collections below the value probed.
  private static func position(_ type: Any.Type, depth: Int) -> Holding {
    if type is AnyClass { return .references }
    if let (element, value) = standardContainer(type) {
      guard let value else { return self.element(element, depth: depth) }
      guard depth < 4 else { return .nothing }
      return position(element, depth: depth + 1).and(position(value, depth: depth + 1))
    }
    switch TypeMetadata.kind(of: type) {
    case .class, .foreignClass, .objcClassWrapper:
      return .references
    case .existential:
      return TypeMetadata.isClassBoundExistential(type) ? .references : .eachValue
    case .tuple:
      // Its elements are positions of the same value (a tuple is not met on its own).
      return fieldsHolding(type, depth: depth)
    case .unknown:
      // A kind this standard library does not name: a constrained existential
      // (`any Collection<Int>`).
      return .eachValue
    default:
      return .nothing
    }
  }

  /// What an optional's or a collection's elements of `type` hold; past four levels, only
  /// whether they are a class.
  private static func element(_ type: Any.Type, depth: Int) -> Holding {
    guard depth < 4 else { return type is AnyClass ? .references : .nothing }
    return position(type, depth: depth + 1)
  }
}

/// A value type whose class instance is its own copy-on-write storage (changed in place only
/// while one value holds it, as `isKnownUniquelyReferenced` tells): its values hold what
/// values of `storedValueType` hold. `@PresentationState` is one (its conformance is where
/// the recorder sees both modules): without it, its mirror would be asked for every value.
package protocol CopyOnWriteWrapper {
  static var storedValueType: Any.Type { get }
}

/// A value type that reflects as the value it carries (a binding: the key path it sets and
/// the value it sets there) and encodes that value through the encoder when it is
/// `Encodable`, as its text (`String(reflecting:)`) otherwise. Its other stored properties are
/// not storage the app changes in place (an immutable key path, closures capturing only these
/// two). `BindingAction` is one (its conformance is where the recorder sees both modules):
/// without it, its mirror would be asked for every value, and would show its key path, a class
/// instance.
package protocol ReflectsAsItsValue: SendableMetatype {
  /// The value this value carries.
  var reflectedValue: Any { get }
}
