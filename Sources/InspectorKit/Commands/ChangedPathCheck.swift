import TraceKit

/// Whether the changed-path set a step's index row names (`steps.changed`) is the one its
/// changes give, named as the writer names them (`TracePath.changedPathTexts`): each changed
/// path's text once, in the order of the changes. A change names:
/// - `set` or `remove`: its own path;
/// - `set` of an object over an object (through `.reflected` markers of one type), which the
///   diff writes when the keys moved: the paths inside it where the two differ
///   (`TraceDiff.changedPaths`), under its path;
/// - `insert`: its own path, or (into an array of identified elements, where the diff names
///   the element by its id) that path with its last index replaced by the element's `id`.
///   Which one the diff wrote depends on both arrays, so the index's text decides between the
///   two: either is the inserted element.
///
/// A step whose changes are each a `set` of a value other than an object, or a `remove`
/// (most steps), is checked once per set and list of paths: the next step with the same set id
/// and the same paths is the same answer. A line of one such `set` read as the path cache's
/// kept change head (`TraceReader.PathCache.keptSetHead`) is known by the head's number alone,
/// without looking at its change.
///
/// ```swift
/// var check = ChangedPathCheck()
/// check.mismatch([.set(count, .int(1))], set: 7, texts: ["count"], before: state)  // nil
/// check.mismatch([.set(count, .int(1))], set: 8, texts: ["title"], before: state)  // ["count"]
/// ```
struct ChangedPathCheck {
  /// The set id last found right with changes that each name their own path, and their paths.
  private var verifiedSet: Int64?
  private var verifiedPaths: [TracePath] = []
  /// The set id last found right for a line of one change read as the kept head, and the
  /// head's number then.
  private var verifiedHead: (set: Int64, head: Int)?

  /// Whether a line of one change read as the kept head `head` (`PathCache.keptSetHead` of
  /// the cache it was read through), with set `id`, was found right before: the counter's
  /// every step, answered inline without a call or a reference count. The caller asks the
  /// cache first: a call made while this check is read retains its paths around the call.
  @inline(__always)
  func knowsKeptHead(set id: Int64, head: Int?) -> Bool {
    guard let verified = verifiedHead else { return false }
    return verified.set == id && head == verified.head
  }

  /// Nil when set `id`, whose texts are `texts`, is what `changes`, applied to `state`, name;
  /// else what they name. The texts are asked for only when the set was not checked with
  /// these paths before (no reference count on most steps). `head` is the `keptSetHead` of
  /// the cache `changes` were just read through, if they were.
  mutating func mismatch(
    _ changes: [TraceChange], set id: Int64, texts: @autoclosure () -> [String],
    before state: inout TraceValue, keptHead head: Int? = nil
  ) -> [String]? {
    if knowsKeptHead(set: id, head: head) { return nil }
    if verifiedSet == id, Self.sameOwnPaths(changes, verifiedPaths) { return nil }
    verifiedSet = nil
    let texts = texts()
    let named = Self.texts(of: changes, before: state, choosingFrom: texts)
    guard named == texts else { return named }
    if changes.allSatisfy(Self.namesOwnPath) {
      verifiedSet = id
      verifiedPaths = changes.map(\.path)
      if let head {
        verifiedHead = (id, head)
      }
    }
    return nil
  }

  /// Whether each change names its own path, and those paths are `paths`.
  private static func sameOwnPaths(_ changes: [TraceChange], _ paths: [TracePath]) -> Bool {
    guard changes.count == paths.count else { return false }
    for index in changes.indices {
      guard namesOwnPath(changes[index]), changes[index].path == paths[index] else {
        return false
      }
    }
    return true
  }

  /// A `set` of a value that is not an object (nor a marker around one), or a `remove`.
  private static func namesOwnPath(_ change: TraceChange) -> Bool {
    switch change {
    case .set(_, .object), .set(_, .reflected), .insert: false
    case .set, .remove: true
    }
  }

  /// The texts `changes` name, each once, in order (see the type).
  static func texts(
    of changes: [TraceChange], before state: TraceValue, choosingFrom index: [String]
  ) -> [String] {
    var paths: [TracePath] = []
    for change in changes {
      switch change {
      case .remove(let path):
        paths.append(path)
      case .insert(let path, let value):
        if let named = identified(path, value), index.contains(named.description) {
          paths.append(named)
        } else {
          paths.append(path)
        }
      case .set(let path, let value):
        guard let (old, new) = objects(state.value(at: path), value) else {
          paths.append(path)
          continue
        }
        for inner in TraceDiff.changedPaths(from: old, to: new) {
          paths.append(TracePath(path.components + inner.components))
        }
      }
    }
    // Each text once, in order, as the writer names a step's paths.
    return TracePath.changedPathTexts(paths)
  }

  /// `path` with its last index replaced by the `id` of `value`, an identified element.
  private static func identified(_ path: TracePath, _ value: TraceValue) -> TracePath? {
    guard case .index? = path.components.last, case .object(let fields) = value,
      let id = fields.first(where: { $0.key == "id" })?.value
    else { return nil }
    var components = path.components
    components[components.count - 1] = .id(id)
    return TracePath(components)
  }

  /// The two objects a `set` replaced one with the other, looked through `.reflected`
  /// markers of the same type on both sides (as the diff does); nil when they are not both
  /// objects.
  private static func objects(
    _ old: TraceValue?, _ new: TraceValue
  ) -> (TraceValue, TraceValue)? {
    guard var old else { return nil }
    var new = new
    while case .reflected(let type, let inner) = old, case .reflected(let other, let next) = new,
      type.utf8.elementsEqual(other.utf8)
    {
      old = inner
      new = next
    }
    guard case .object = old, case .object = new else { return nil }
    return (old, new)
  }
}
