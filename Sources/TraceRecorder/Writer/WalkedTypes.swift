import Locking
import TraceKit

/// What a writer learned about each type of field it met, so that a step asks the runtime
/// nothing: a protocol cast that fails costs more than encoding a small field.
///
/// One per writer (its thread alone uses it), filled from a table all writers share: the first
/// question about a type scans the conformance tables, over 100,000 instructions.
///
/// ```swift
/// let types = WalkedTypes()
/// types.kind(of: rows)          // .elements (an IdentifiedArray)
/// types.kind(of: Point(x: 1))   // .walked: encoded field by field
/// types.kind(of: UUID())        // .whole
/// types.kind(of: Int?.none)     // .wrapper: encoded as what it wraps
/// ```
final class WalkedTypes {
  enum Kind {
    /// Its elements are re-encoded one by one (`IncrementalElements`).
    case elements
    /// Encoded field by field (`FieldWalker`), until a value of it could not be.
    case walked
    /// An `Optional` or a `@PresentationState`: encoded as the value it wraps, read without
    /// its `encode(to:)` (see `WalkedWrapper`).
    case wrapper
    /// A value whose `encode(to:)` wrote one single value (a hand-written wrapper, a raw-value
    /// enum): encoded as that value (`SingleFieldWalker`).
    case single
    /// Encoded whole by `TraceValueEncoder`.
    case whole
  }

  /// The keyed containers the writer's walkers hand out, one per key type.
  let containers = KeyedContainers()
  /// The walkers not walking, reused: a walker allocated per changed level and step cost its
  /// allocation and release (they do not retain this object: see `FieldWalker.types`).
  @exclusivity(unchecked) private var idleWalkers: [FieldWalker] = []
  @exclusivity(unchecked) private var idleSingleWalkers: [SingleFieldWalker] = []
  /// The kinds of the first types met, by type: comparing a few identifiers costs less than
  /// hashing one (a look-up per changed field that is not a scalar). Those of the rest are
  /// hashed.
  @exclusivity(unchecked) private var firstKinds: [(id: ObjectIdentifier, kind: Kind)] = []
  @exclusivity(unchecked) private var kinds: [ObjectIdentifier: Kind] = [:]
  /// The wrapper types met (see `wrapperType`): few, compared one by one.
  @exclusivity(unchecked) private var wrappers:
    [(id: ObjectIdentifier, type: (any WalkedWrapper.Type)?)] = []
  /// The collection types met (see `elementsType`): few, compared one by one.
  @exclusivity(unchecked) private var elementTypes:
    [(id: ObjectIdentifier, type: (any IncrementalElements.Type)?)] = []
  private static var compared: Int { 16 }
  private static let shared = Lock<[ObjectIdentifier: Kind]>([:])
  /// How a box of a type is made: its `ValueBox` class and the bytes it compares.
  private struct BoxClass {
    let type: AnyValueBox.Type
    let significant: SignificantBytes
  }

  @exclusivity(unchecked) private var boxClasses: [ObjectIdentifier: BoxClass] = [:]
  private static let sharedLayouts = Lock<[ObjectIdentifier: SignificantBytes]>([:])

  /// A box of `value` for the next step's comparison (see `FieldCache.swiftValue`), comparing
  /// the bytes that hold a `T`'s value (see `SignificantBytes`, laid out once per type). Made
  /// through the `ValueBox<T>` class kept for `T`: `ValueBox(value)` looked `ValueBox<T>` up
  /// in the runtime's metadata cache, about 640 instructions a box in the writer's
  /// unspecialized code (callgrind, record.throughput.app: a search presented again).
  func box<T>(_ value: T, inner: AnyValueBox?) -> AnyValueBox {
    let id = ObjectIdentifier(T.self)
    let made = boxClasses[id] ?? boxClass(of: T.self, id: id)
    return withUnsafePointer(to: value) {
      made.type.init(
        copying: UnsafeRawPointer($0), valueType: id, inner: inner,
        significant: made.significant)
    }
  }

  private func boxClass<T>(of type: T.Type, id: ObjectIdentifier) -> BoxClass {
    let layout =
      Self.sharedLayouts.withLock { $0[id] }
      ?? {
        let layout = SignificantBytes.of(type)
        Self.sharedLayouts.withLock { $0[id] = layout }
        return layout
      }()
    let made = BoxClass(type: ValueBox<T>.self, significant: layout)
    boxClasses[id] = made
    return made
  }

  /// A walker for a walk over `cache` (the previous fields of the level at `path`); `recycle`
  /// it once the walk ended.
  func walker(
    over cache: [FieldCache], stagesElements: Bool = false, path: [TracePath.Component] = []
  ) -> FieldWalker {
    var buffer: [FieldCache] = []
    return walker(over: cache, stagesElements: stagesElements, path: path, buffer: &buffer)
  }

  /// A walker as above whose fields go into `buffer`'s storage (an empty array, taken: see
  /// `FieldWalker.init`).
  func walker(
    over cache: [FieldCache], stagesElements: Bool = false, path: [TracePath.Component] = [],
    buffer: inout [FieldCache]
  ) -> FieldWalker {
    guard let walker = idleWalkers.popLast() else {
      return FieldWalker(
        cache: cache, types: self, stagesElements: stagesElements, path: path, buffer: &buffer)
    }
    walker.begin(cache: cache, stagesElements: stagesElements, path: path, buffer: &buffer)
    return walker
  }

  /// Ends `walker`'s walk and keeps it for the next.
  func recycle(_ walker: FieldWalker) {
    walker.end()
    idleWalkers.append(walker)
  }

  /// A walker for the field `key` of a value that writes a single value (see
  /// `SingleFieldWalker`) in the level at `prefix`; `recycle` it once the walk ended.
  func singleWalker(
    key: String, previous: FieldCache?, previousBox: AnyValueBox?, prefix: [TracePath.Component]
  ) -> SingleFieldWalker {
    guard let walker = idleSingleWalkers.popLast() else {
      return SingleFieldWalker(
        key: key, previous: previous, previousBox: previousBox, prefix: prefix, types: self)
    }
    walker.begin(key: key, previous: previous, previousBox: previousBox, prefix: prefix)
    return walker
  }

  /// Ends `walker`'s walk and keeps it for the next.
  func recycle(_ walker: SingleFieldWalker) {
    walker.end()
    idleSingleWalkers.append(walker)
  }

  /// The `IncrementalElements` type `type` is, when it is one (a protocol cast once per type).
  func elementsType<T>(of type: T.Type) -> (any IncrementalElements.Type)? {
    Self.conformance(of: type, in: &elementTypes) { $0 as? any IncrementalElements.Type }
  }

  /// The `WalkedWrapper` type `type` is, when it is one (a protocol cast once per type).
  func wrapperType<T>(of type: T.Type) -> (any WalkedWrapper.Type)? {
    Self.conformance(of: type, in: &wrappers) { $0 as? any WalkedWrapper.Type }
  }

  /// What `cast` makes of `type`, found in `met` when `type` was met before, else cast once and
  /// noted there.
  @inline(__always)
  private static func conformance<Conformance>(
    of type: Any.Type, in met: inout [(id: ObjectIdentifier, type: Conformance?)],
    cast: (Any.Type) -> Conformance?
  ) -> Conformance? {
    let id = ObjectIdentifier(type)
    for index in met.indices where met[index].id == id {
      return met[index].type
    }
    let conformance = cast(type)
    met.append((id, conformance))
    return conformance
  }

  func kind<T: Encodable>(of value: T) -> Kind {
    let id = ObjectIdentifier(T.self)
    for index in firstKinds.indices where firstKinds[index].id == id {
      return firstKinds[index].kind
    }
    if let kind = kinds[id] { return kind }
    let kind =
      Self.shared.withLock { $0[id] }
      ?? {
        let kind: Kind =
          if value is any IncrementalElements {
            .elements
          } else if value is any WalkedWrapper {
            .wrapper
          } else if TraceValueEncoder.encodesFieldByField(value) {
            .walked
          } else {
            .whole
          }
        Self.shared.withLock { $0[id] = kind }
        return kind
      }()
    remember(kind, for: id)
    return kind
  }

  /// Keeps what this writer knows of a type's kind, where `kind(of:)` looks first.
  private func remember(_ kind: Kind, for id: ObjectIdentifier) {
    if let index = firstKinds.firstIndex(where: { $0.id == id }) {
      firstKinds[index].kind = kind
    } else if kinds[id] == nil, firstKinds.count < Self.compared {
      firstKinds.append((id, kind))
    } else {
      kinds[id] = kind
    }
  }

  /// A value of `type` wrote something a walker cannot keep (a nested container): the type is
  /// encoded whole from now on.
  func cannotWalk<T>(_ type: T.Type) {
    learn(.whole, for: type)
  }

  /// A value of `type` wrote a single value: the type is encoded as what it writes from now on.
  func writesSingleValue<T>(_ type: T.Type) {
    learn(.single, for: type)
  }

  private func learn<T>(_ kind: Kind, for type: T.Type) {
    let id = ObjectIdentifier(type)
    remember(kind, for: id)
    Self.shared.withLock { $0[id] = kind }
  }
}

/// `Optional`, which `TraceValueEncoder` encodes as what it wraps (with a marker when that is
/// itself `null`: see `Optional.wrappedField(in:…)`): the type it wraps, for `SignificantBytes`.
protocol WalkedOptional {
  /// `Wrapped` (see `SignificantBytes`).
  static var wrappedType: Any.Type { get }
}

extension Optional: WalkedOptional {
  static var wrappedType: Any.Type { Wrapped.self }
}
