import TraceKit
import TraceValues

/// The state patterns where no change can bring a type the table lacks, kept as a tree of path
/// components, so a change's path is checked without building its pattern's text or hashing
/// it: an element's id or index goes to the one `[]` child whatever its value.
///
/// A pattern is plain when its entry is a leaf (a string, number, bool, UUID, date or URL:
/// no enum, no raw values), or a collection whose elements' entry is such a leaf. A struct is
/// never plain: a value set there whole (an optional presented, an element inserted) may hold
/// an enum case, an optional now non-nil or an existential's other fields. The table only
/// grows and a known kind never changes, so a plain entry stays plain for good, and
/// `SwiftTypeCollector` finds nothing there for any value.
///
/// ```swift
/// let plain = PlainPatterns()
/// plain.insert("todos[id: 3].isComplete", in: table.state)  // true: Swift.Bool
/// plain.contains("todos[id: 9].isComplete")                  // true
/// plain.contains("todos[id: 9].title")                       // false: not inserted
/// ```
final class PlainPatterns {
  // A tree is used by one writer's `SwiftTypeCollector` alone, on that writer's thread (as
  // `StepWriter.types`, itself unchecked): no dynamic exclusivity checks, which cost about
  // 160 instructions a step on the composed app (`swift_beginAccess`, about two calls a
  // step, callgrind).
  private final class Node {
    /// The fields below, by key: a handful, so a scan is cheaper than hashing the key.
    @exclusivity(unchecked) var fields: [(key: String, node: Node)] = []
    /// The elements' node (`[]`): an index, an id, or a dictionary's key.
    @exclusivity(unchecked) var element: Node?
    /// Whether this pattern's entry is a dictionary: its keys are elements, as
    /// `SwiftTypeTable.pattern(of:in:)` reads them.
    let isDictionary: Bool
    @exclusivity(unchecked) var isPlain = false

    init(isDictionary: Bool) {
      self.isDictionary = isDictionary
    }

    func field(_ key: String) -> Node? {
      for field in fields where field.key == key { return field.node }
      return nil
    }
  }

  @exclusivity(unchecked) private var root: Node?

  /// Whether `path`'s pattern was inserted as plain.
  func contains(_ path: TracePath) -> Bool {
    guard var node = root else { return false }
    for component in path.components {
      let next: Node?
      switch component {
      case .key(let name): next = node.isDictionary ? node.element : node.field(name)
      case .index, .id: next = node.element
      }
      guard let next else { return false }
      node = next
    }
    return node.isPlain
  }

  /// Notes `path`'s pattern as plain if its entry in `entries` is; returns whether it did.
  /// Every pattern on the way must be known with its kind settled (not `.other`), so what a
  /// node says about being a dictionary holds for good.
  @discardableResult
  func insert(_ path: TracePath, in entries: [String: SwiftTypeEntry]) -> Bool {
    guard let rootEntry = entries[""], rootEntry.kind != .other else { return false }
    // The pattern after each component, as `SwiftTypeTable.pattern(of:in:)` builds it.
    var kinds: [SwiftTypeEntry.Kind] = []
    kinds.reserveCapacity(path.components.count)
    var text = ""
    var entry = rootEntry
    for component in path.components {
      switch component {
      case .key where entry.kind == .dictionary: text += "[]"
      case .key(let name): text = SwiftTypeTable.join(text, name)
      case .index, .id: text += "[]"
      }
      guard let next = entries[text], next.kind != .other else { return false }
      kinds.append(next.kind)
      entry = next
    }
    guard Self.isPlain(text, in: entries) else { return false }
    let start = root ?? Node(isDictionary: rootEntry.kind == .dictionary)
    root = start
    var node = start
    for (component, kind) in zip(path.components, kinds) {
      switch component {
      case .key(let name) where !node.isDictionary:
        if let next = node.field(name) {
          node = next
        } else {
          let next = Node(isDictionary: kind == .dictionary)
          node.fields.append((name, next))
          node = next
        }
      case .key, .index, .id:
        let next = node.element ?? Node(isDictionary: kind == .dictionary)
        node.element = next
        node = next
      }
    }
    node.isPlain = true
    return true
  }

  /// Whether no value at `pattern` can be new to `entries`.
  static func isPlain(_ pattern: String, in entries: [String: SwiftTypeEntry]) -> Bool {
    guard let entry = entries[pattern] else { return false }
    return isPlain(entry, at: pattern, in: entries)
  }

  /// Whether no value at `pattern`, whose entry is `entry`, can be new to `entries`.
  static func isPlain(
    _ entry: SwiftTypeEntry, at pattern: String, in entries: [String: SwiftTypeEntry]
  ) -> Bool {
    switch entry.kind {
    case .array, .set, .dictionary, .identifiedArray:
      return entries[pattern + "[]"].map(isLeaf) ?? false
    default:
      return isLeaf(entry)
    }
  }

  /// Whether a value with this entry holds no other value and no case.
  static func isLeaf(_ entry: SwiftTypeEntry) -> Bool {
    guard entry.cases == nil, entry.rawValues == nil else { return false }
    switch entry.kind {
    case .uuid, .date, .url, .string, .bool, .integer, .floatingPoint: return true
    case .struct, .enum, .array, .set, .dictionary, .identifiedArray, .other: return false
    }
  }
}
