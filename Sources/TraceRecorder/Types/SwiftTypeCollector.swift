import ComposableCore
import Foundation
import TraceKit

/// Builds a trace's `SwiftTypeTable` on the writer thread: walks a state or an action with
/// `Mirror` the first time one of its path patterns (or an enum case there) appears, so a step
/// whose changes are all at paths already checked costs a set look-up per change.
///
/// ```swift
/// var types = SwiftTypeCollector()
/// types.noteState(state, changes: changes)   // types.isDirty: the table grew, store it
/// types.table.state["todos[].isComplete"]    // Swift.Bool, .bool
/// ```
struct SwiftTypeCollector {
  private(set) var table = SwiftTypeTable()
  /// What is known of an action case path already walked.
  private enum WalkedAction {
    /// A value may bring a type: checked with `firstMissing`. Whether it is closed is asked
    /// again only once the action table grew after `growths`.
    case open(growths: Int)
    /// Its values of this case and labels can bring no type whatever their payload.
    case closed(ClosedActionCase)
  }

  private var walkedActions: [String: WalkedAction] = [:]
  /// How many times the action table grew.
  private var actionGrowths = 0
  /// Pattern and case keys a walk could not resolve (the changed element was beyond the
  /// elements a walk looks at): not walked again for them.
  private var unresolved = Set<String>()
  /// Patterns where no value can be new to the table: a change there needs no look-up.
  private let plainPatterns = PlainPatterns()
  /// Other paths whose pattern is known and holds no case yet (an enum that prints itself):
  /// a change there needs no look-up either.
  private var plainPaths = Set<TracePath>()
  static let plainPathLimit = 4_096
  /// Whether the table grew since the writer last stored it.
  var isDirty = false

  /// Records the state's types at the start, and again when a change reaches a pattern (or an
  /// enum case or raw value) not in the table; `isDirty` says whether the table grew.
  mutating func noteState<State>(_ state: State, changes: [TraceChange]?) {
    var key: String?
    if let changes {
      for change in changes {
        guard let (path, value) = Self.pathAndValue(change), value != .null,
          !plainPatterns.contains(path), plainPaths.isEmpty || !plainPaths.contains(path)
        else { continue }
        let pattern = SwiftTypeTable.pattern(of: path, in: table.state)
        let entry = table.state[pattern]
        if let missing = Self.missing(entry, value, pattern: pattern) {
          guard !unresolved.contains(missing) else { continue }
          key = missing
          break
        }
        // Known, and no value there can be new to the table: not looked at again.
        if let entry, entry.cases == nil, entry.rawValues == nil, entry.kind != .other,
          !plainPatterns.insert(path, in: table.state)
        {
          if plainPaths.count >= Self.plainPathLimit { plainPaths.removeAll() }
          plainPaths.insert(path)
        }
      }
      guard key != nil else { return }
    }
    var walk = SwiftTypeWalk(entries: table.state)
    walk.visit(state, pattern: "", depth: 0)
    let grew = walk.entries != table.state
    table.state = walk.entries
    if let key, !grew { unresolved.insert(key) }
    isDirty = isDirty || grew
  }

  /// Records an action's types the first time its case path is met, or an enum case or raw
  /// value in it that the table does not know (the writer asks once per distinct action).
  mutating func noteAction<Action>(_ action: Action, value: TraceValue, casePath: String) {
    if let index = walkedActions.index(forKey: casePath) {
      let known = walkedActions.values[index]
      if case .closed(let closed) = known, closed.matches(value) { return }
      guard let key = Self.firstMissing(value, at: "", in: table.action),
        unresolved.insert("action " + key).inserted
      else {
        if case .open(let growths) = known, growths != actionGrowths {
          walkedActions.values[index] =
            ClosedActionCase(value, in: table.action).map { .closed($0) }
            ?? .open(growths: actionGrowths)
        }
        return
      }
    } else {
      walkedActions[casePath] = .open(growths: -1)
    }
    var walk = SwiftTypeWalk(entries: table.action)
    walk.visit(action, pattern: "", depth: 0)
    let grew = walk.entries != table.action
    table.action = walk.entries
    if grew { actionGrowths += 1 }
    isDirty = isDirty || grew
  }

  /// The first enum case or raw value in `value` that `entries` do not know, as a key.
  private static func firstMissing(
    _ value: TraceValue, at pattern: String, in entries: [String: SwiftTypeEntry]
  ) -> String? {
    guard let entry = entries[pattern] else { return nil }
    if let key = missing(entry, value, pattern: pattern) { return key }
    guard case .enumCase(let name, let fields) = value else { return nil }
    if name == "Optional.some", fields.count == 1 {
      return firstMissing(fields[0].value, at: pattern, in: entries)
    }
    for field in fields {
      let fieldPattern = SwiftTypeTable.casePattern(
        pattern, case: name, field: field.key, fieldCount: fields.count)
      if let key = firstMissing(field.value, at: fieldPattern, in: entries) { return key }
    }
    return nil
  }

  private static func pathAndValue(_ change: TraceChange) -> (TracePath, TraceValue)? {
    switch change {
    case .set(let path, let value), .insert(let path, let value): (path, value)
    case .remove: nil
    }
  }

  /// What about `value` the entry does not know yet, as a key for `unresolved`; nil when
  /// nothing.
  private static func missing(_ entry: SwiftTypeEntry?, _ value: TraceValue, pattern: String)
    -> String?
  {
    // Unknown, or an optional never seen holding a value.
    guard let entry, !(entry.kind == .other && entry.optional == true) else { return pattern }
    if case .enumCase(let name, _) = value, entry.kind == .enum,
      !(entry.cases ?? []).contains(name)
    {
      return pattern + " case " + name
    }
    if let raw = entry.rawValues, let text = SwiftTypeTable.rawKey(value), raw[text] == nil {
      return pattern + " raw " + text
    }
    return nil
  }
}
