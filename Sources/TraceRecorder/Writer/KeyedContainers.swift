/// The keyed containers `FieldWalker`s hand out: one per key type and writer, made once, each
/// bound to the walker its calls go to. Making a `KeyedEncodingContainer` per walked struct
/// instantiated `FieldContainer<Key>`, its witness table and its box through the runtime's
/// metadata cache and allocated the box: about 1,300 instructions a container, two containers
/// a step on the composed app (callgrind).
///
/// A walker binds the container when its value asks for it, binds it again after each field
/// that walked a value of its own (which may have the same key type: `FieldWalker.add`), and
/// lets go of it when its walk ends; `unbindAll` clears every slot once a state's walk ends. A
/// container used outside its walk throws `FieldWalker.Unsupported`.
///
/// ```swift
/// let containers = KeyedContainers()
/// let container = containers.container(keyedBy: Point.CodingKeys.self, for: walker)
/// try container.encode(3, forKey: .x)   // walker.add("x", leaf: .int(3))
/// containers.unbindAll()                // container.encode now throws
/// ```
final class KeyedContainers {
  /// The walker a container's calls go to (nil when none is walking).
  final class Slot {
    // Not retained: a container's every call would retain and release it (callgrind: 1,000
    // instructions a step on the composed app). A walker is bound only while it walks: its
    // children's walks bind their own and `FieldWalker.add` binds it again after each, and
    // `unbindAll` clears every slot before the state's walk returns. The writer's thread alone
    // uses a slot: no dynamic exclusivity checks.
    @exclusivity(unchecked) var walker: Unmanaged<FieldWalker>?
    @exclusivity(unchecked) fileprivate var listed = false
  }

  private class Entry {
    final let slot: Slot

    init(slot: Slot) {
      self.slot = slot
    }
  }

  /// An entry generic over the container's own type (`KeyedEncodingContainer<Key>`), not over
  /// `Key`: `copy` finds that type's metadata in this object's class, where code generic over
  /// `Key` looked it up in the runtime's metadata cache at every container handed out (a
  /// resilient standard library type: about 515 instructions a container, two containers a
  /// step on the composed app; callgrind).
  private final class Typed<Container>: Entry {
    private let container: Container

    init(slot: Slot, container: Container) {
      self.container = container
      super.init(slot: slot)
    }

    /// A copy of the container. Not inlined: a caller generic over `Key` would look the
    /// metadata up again.
    @inline(never)
    func copy() -> Container { container }
  }

  /// The entries of the first key types met, by key type: comparing a few identifiers costs
  /// less than hashing one. Those of the rest are hashed.
  @exclusivity(unchecked) private var first: [(key: ObjectIdentifier, entry: Entry)] = []
  @exclusivity(unchecked) private var rest: [ObjectIdentifier: Entry] = [:]
  private static var compared: Int { 16 }
  /// The slots bound since the last `unbindAll`: the first `boundCount` (the array is
  /// reused, not emptied: `removeAll(keepingCapacity:)` cost more than the binding).
  /// Not retained, as the slots a walker keeps (see `container`): each is its entry's, which
  /// this object keeps.
  @exclusivity(unchecked) private var bound: [Unmanaged<Slot>] = []
  @exclusivity(unchecked) private var boundCount = 0

  /// The container for `Key`, bound to `walker`, and its slot, handed out unretained, as this
  /// object keeps it for as long as it lives.
  func container<Key: CodingKey>(keyedBy type: Key.Type, for walker: FieldWalker)
    -> (container: KeyedEncodingContainer<Key>, slot: Unmanaged<Slot>)
  {
    let id = ObjectIdentifier(type)
    let entry: Entry
    if let index = first.firstIndex(where: { $0.key == id }) {
      entry = first[index].entry
    } else if let known = rest[id] {
      entry = known
    } else {
      entry = Self.entry(keyedBy: type)
      if first.count < Self.compared {
        first.append((id, entry))
      } else {
        rest[id] = entry
      }
    }
    let slot = Unmanaged.passUnretained(entry.slot)
    bind(slot, to: walker)
    return (unsafeDowncast(entry, to: Typed<KeyedEncodingContainer<Key>>.self).copy(), slot)
  }

  /// A new entry for `Key`. Not inlined: the compiler looked the container's type up at the
  /// start of any function that makes one, whichever path it then took.
  @inline(never)
  private static func entry<Key: CodingKey>(keyedBy type: Key.Type) -> Entry {
    let slot = Slot()
    return Typed(slot: slot, container: KeyedEncodingContainer(FieldContainer<Key>(slot: slot)))
  }

  func bind(_ slot: Unmanaged<Slot>, to walker: FieldWalker) {
    slot._withUnsafeGuaranteedRef { target in
      target.walker = Unmanaged.passUnretained(walker)
      if !target.listed {
        target.listed = true
        list(slot)
      }
    }
  }

  private func list(_ slot: Unmanaged<Slot>) {
    if boundCount < bound.count {
      bound[boundCount] = slot
    } else {
      bound.append(slot)
    }
    boundCount += 1
  }

  /// Lets go of every walker bound since the last call.
  func unbindAll() {
    for index in 0..<boundCount {
      bound[index]._withUnsafeGuaranteedRef { slot in
        slot.walker = nil
        slot.listed = false
      }
    }
    boundCount = 0
  }
}
