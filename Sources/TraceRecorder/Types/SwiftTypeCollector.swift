import ComposableCore
import Foundation
import TraceKit

/// Builds a trace's `SwiftTypeTable` on the writer thread: walks a state or an action with
/// `Mirror` when a recorded value holds, anywhere inside it, a pattern, an enum case, a raw
/// value or an optional's wrapped type the table lacks, so a step whose changes are all at
/// plain patterns already met costs a look-up per change.
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
    /// A value may bring a type: checked with `collectMissing`. Whether it is closed is asked
    /// again only once the action table grew after `growths`.
    case open(growths: Int)
    /// Its values of this case and labels can bring no type whatever their payload.
    case closed(ClosedActionCase)
  }

  private var walkedActions: [String: WalkedAction] = [:]
  /// The case paths of the closed cases `noteAction` matched last (`recentClosedKept` at
  /// most), and those cases: an action of one of them is matched without hashing its case
  /// path into `walkedActions`, where a closed case stays closed. Each todos10k action (two
  /// cases, a new id each) misses the writer's cache, and that look-up was about 390
  /// instructions of the ~700 its note cost (callgrind).
  private var recentClosed: [(casePath: String, closed: ClosedActionCase)] = []
  static let recentClosedKept = 4
  /// How many times the action table grew.
  private var actionGrowths = 0
  /// What a walk of the very value that held it could not add (`missing`'s keys: the value
  /// reads otherwise than `Mirror` sees it, as a hand-written `encode(to:)`, an enum that
  /// prints itself or a class make it): not walked for again. Only these keys are skipped, so
  /// nothing else in the same value is hidden by them.
  private var unresolvedState = Set<String>()
  private var unresolvedAction = Set<String>()
  /// Patterns where no value can be new to the table: a change there needs no look-up.
  private let plainPatterns = PlainPatterns()
  /// Other paths whose pattern is plain (`PlainPatterns.isPlain`) but that `plainPatterns`
  /// cannot hold (a pattern on the way is not settled): a change there needs no look-up either.
  private var plainPaths = Set<TracePath>()
  static let plainPathLimit = 4_096
  /// Values a change set at a path (not plain) in which nothing was missing (`collectMissing`
  /// found nothing), the last few per path, forgotten whenever the state's table grows: the
  /// same value there again against the same table finds nothing either, as `unresolved`
  /// keys stay. An enum field toggled between cases, or a struct presented again, is
  /// compared, not walked. A
  /// collection set whole is not kept: its elements come back reordered more often than
  /// equal, and `LeafStructs` already passes over its plain elements.
  private var knownValues: [TracePath: [TraceValue]] = [:]
  static let knownValuesPerPath = 2
  static let knownPathLimit = 1_024
  /// Whether the table grew since the writer last stored it.
  var isDirty = false

  /// Struct patterns whose fields, by these keys in this order, all have leaf entries
  /// (`PlainPatterns.isLeaf`): a value there with the same keys holds nothing new, as a leaf
  /// entry stays a leaf. The keys are compared, not assumed: an existential's other concrete
  /// type has other fields.
  private final class LeafStructs {
    // The writer's thread alone uses it: no dynamic exclusivity checks.
    @exclusivity(unchecked) var keys: [String: [String]] = [:]

    /// Whether `fields` are the keys noted for a struct pattern whose fields are all leaves.
    static func matches(_ fields: [TraceField], _ keys: [String]) -> Bool {
      guard keys.count == fields.count else { return false }
      for (key, field) in zip(keys, fields) where key != field.key { return false }
      return true
    }
  }

  /// Element types whose walk of one element tells the rest (`FixedWalkTypes`).
  private let fixedTypes = FixedWalkTypes()
  private let leafStateStructs = LeafStructs()
  private let leafActionStructs = LeafStructs()

  /// Something in a recorded value that the table does not know yet.
  private struct Missing {
    /// `missing`'s key.
    var key: String
    /// Where it is, as a pattern.
    var pattern: String
  }

  /// Records the initial state's types: a walk, then whatever of the encoded state (`value`)
  /// the walk did not reach (an enum case, raw value or optional's type held only by an
  /// element beyond the first ones a walk looks at), walked for as a change's value is.
  mutating func noteStart<State>(_ state: State, value: TraceValue) {
    let grew = Self.walkWhole(
      value, entries: &table.state, unresolved: &unresolvedState, leafStructs: leafStateStructs,
      fixed: fixedTypes
    ) { walk in walk.visit(state, pattern: "", depth: 0) }
    if grew { knownValues.removeAll() }
    isDirty = isDirty || grew
  }

  /// Records the state's types: without `changes`, by a walk of the whole state (a
  /// recording's start adds what the walk did not reach: `noteStart`); with them, again when a
  /// change's value (anywhere inside it) holds a pattern, an enum case, a raw value or an
  /// optional's wrapped type not in the table. `isDirty` says whether the table grew.
  mutating func noteState<State>(_ state: State, changes: [TraceChange]?) {
    guard let changes else {
      var walk = SwiftTypeWalk(entries: table.state, fixed: fixedTypes)
      walk.visit(state, pattern: "", depth: 0)
      if walk.entries != table.state {
        isDirty = true
        knownValues.removeAll()
      }
      table.state = walk.entries
      return
    }
    var values: [(value: TraceValue, pattern: String)] = []
    var found: [Missing] = []
    // By index, the path and value bound straight from the array: iterating the changes copied
    // each one, and a helper returning both copied them again (about 100 instructions a
    // counter step, callgrind).
    for index in changes.indices {
      let path: TracePath
      let value: TraceValue
      switch changes[index] {
      case .set(let changed, let new), .insert(let changed, let new):
        (path, value) = (changed, new)
      case .remove: continue
      }
      // A pattern match, not `TraceValue.==` (a call that copies both values into a pair).
      if case .null = value { continue }
      guard !plainPatterns.contains(path), plainPaths.isEmpty || !plainPaths.contains(path)
      else { continue }
      let isCollection = if case .array = value { true } else { false }
      let known = isCollection ? nil : knownValues[path]
      if let known, known.contains(value) { continue }
      let pattern = SwiftTypeTable.pattern(of: path, in: table.state)
      let entry = table.state[pattern]
      // No value there can be new to the table: not looked at again.
      if let entry, PlainPatterns.isPlain(entry, at: pattern, in: table.state) {
        if !plainPatterns.insert(path, in: table.state) {
          if plainPaths.count >= Self.plainPathLimit { plainPaths.removeAll() }
          plainPaths.insert(path)
        }
        continue
      }
      let before = found.count
      Self.collectMissing(
        value, at: pattern, entry: entry, in: table.state, skipping: unresolvedState,
        leafStructs: leafStateStructs, into: &found)
      if found.count != before {
        values.append((value, pattern))
      } else if !isCollection {
        noteKnown(value, at: path, after: known)
      }
    }
    guard !found.isEmpty else { return }
    let grew = Self.resolve(
      &found, values: values, entries: &table.state, unresolved: &unresolvedState,
      leafStructs: leafStateStructs, fixed: fixedTypes
    ) { walk in walk.visit(state, pattern: "", depth: 0) }
    if grew { knownValues.removeAll() }
    isDirty = isDirty || grew
  }

  /// Notes `value` as holding nothing new at `path`, after the values noted there before
  /// (`known`), keeping the last `knownValuesPerPath`.
  private mutating func noteKnown(
    _ value: TraceValue, at path: TracePath, after known: [TraceValue]?
  ) {
    guard var values = known else {
      if knownValues.count >= Self.knownPathLimit { knownValues.removeAll() }
      knownValues[path] = [value]
      return
    }
    if values.count >= Self.knownValuesPerPath { values.removeFirst() }
    values.append(value)
    knownValues[path] = values
  }

  /// Records an action's types the first time its case path is met, or anything in it the
  /// table does not know (the writer asks once per distinct action).
  mutating func noteAction<Action>(_ action: Action, value: TraceValue, casePath: String) {
    if let recent = recentClosed.firstIndex(where: { $0.casePath == casePath }),
      recentClosed[recent].closed.matches(value)
    {
      return
    }
    var found: [Missing] = []
    if let index = walkedActions.index(forKey: casePath) {
      let known = walkedActions.values[index]
      if case .closed(let closed) = known, closed.matches(value) {
        noteRecent(closed, at: casePath)
        return
      }
      Self.collectMissing(
        value, at: "", in: table.action, skipping: unresolvedAction,
        leafStructs: leafActionStructs, into: &found)
      guard !found.isEmpty else {
        if case .open(let growths) = known, growths != actionGrowths {
          walkedActions.values[index] =
            ClosedActionCase(value, in: table.action).map { .closed($0) }
            ?? .open(growths: actionGrowths)
        }
        return
      }
    } else {
      walkedActions[casePath] = .open(growths: -1)
      let grew = Self.walkWhole(
        value, entries: &table.action, unresolved: &unresolvedAction,
        leafStructs: leafActionStructs, fixed: fixedTypes
      ) { walk in walk.visit(action, pattern: "", depth: 0) }
      if grew { actionGrowths += 1 }
      isDirty = isDirty || grew
      return
    }
    let grew = Self.resolve(
      &found, values: [(value, "")], entries: &table.action, unresolved: &unresolvedAction,
      leafStructs: leafActionStructs, fixed: fixedTypes
    ) { walk in walk.visit(action, pattern: "", depth: 0) }
    if grew { actionGrowths += 1 }
    isDirty = isDirty || grew
  }

  /// Keeps `closed`, the closed case at `casePath`, among the recent ones (the oldest goes).
  private mutating func noteRecent(_ closed: ClosedActionCase, at casePath: String) {
    if let known = recentClosed.firstIndex(where: { $0.casePath == casePath }) {
      recentClosed[known].closed = closed
      return
    }
    if recentClosed.count >= Self.recentClosedKept { recentClosed.removeFirst() }
    recentClosed.append((casePath, closed))
  }

  /// Walks a whole value (with `visit`), then walks for what of its encoding (`value`) that
  /// walk did not reach (an element beyond the first ones a walk looks at), as `resolve` does.
  /// Returns whether `entries` grew.
  private static func walkWhole(
    _ value: TraceValue, entries: inout [String: SwiftTypeEntry], unresolved: inout Set<String>,
    leafStructs: LeafStructs, fixed: FixedWalkTypes, visit: (inout SwiftTypeWalk) -> Void
  ) -> Bool {
    var walk = SwiftTypeWalk(entries: entries, fixed: fixed)
    visit(&walk)
    let grew = walk.entries != entries
    entries = walk.entries
    var found: [Missing] = []
    collectMissing(
      value, at: "", in: entries, skipping: unresolved, leafStructs: leafStructs, into: &found)
    guard !found.isEmpty else { return grew }
    return resolve(
      &found, values: [(value, "")], entries: &entries, unresolved: &unresolved,
      leafStructs: leafStructs, fixed: fixed, visit: visit) || grew
  }

  /// Walks (with `visit`) until `entries` know what `found` lacks in `values`: each walk
  /// looks at every element of the collections on the way to what is still missing. What a
  /// walk cannot add goes to `unresolved`. Returns whether `entries` grew.
  private static func resolve(
    _ found: inout [Missing], values: [(value: TraceValue, pattern: String)],
    entries: inout [String: SwiftTypeEntry], unresolved: inout Set<String>,
    leafStructs: LeafStructs, fixed: FixedWalkTypes, visit: (inout SwiftTypeWalk) -> Void
  ) -> Bool {
    var grew = false
    while !found.isEmpty {
      var walk = SwiftTypeWalk(entries: entries, fixed: fixed)
      for missing in found { collectionPatterns(of: missing.pattern, into: &walk.walkedWhole) }
      visit(&walk)
      let grewNow = walk.entries != entries
      entries = walk.entries
      grew = grew || grewNow
      var still: [Missing] = []
      for (value, pattern) in values {
        collectMissing(
          value, at: pattern, in: entries, skipping: unresolved, leafStructs: leafStructs,
          into: &still)
      }
      guard grewNow else {
        for missing in still { unresolved.insert(missing.key) }
        break
      }
      found = still
    }
    return grew
  }

  /// Inserts the element patterns on the way to `pattern`: `a[]` and `a[].b[]` for
  /// `a[].b[].c`.
  private static func collectionPatterns(of pattern: String, into patterns: inout Set<String>) {
    var end = pattern.startIndex
    while let range = pattern[end...].range(of: "[]") {
      patterns.insert(String(pattern[..<range.upperBound]))
      end = range.upperBound
    }
  }

  /// Appends what in `value` (at `pattern`) `entries` do not know to `found`, looking inside
  /// structs, collections and enum cases' values; keys in `unresolved` are passed over, and
  /// nothing below an unknown pattern or case is looked at (a walk adds it all at once).
  private static func collectMissing(
    _ value: TraceValue, at pattern: String, in entries: [String: SwiftTypeEntry],
    skipping unresolved: Set<String>, leafStructs: LeafStructs, into found: inout [Missing]
  ) {
    collectMissing(
      value, at: pattern, entry: entries[pattern], in: entries, skipping: unresolved,
      leafStructs: leafStructs, into: &found)
  }

  /// `collectMissing` with `pattern`'s entry looked up; a value below whose entry is a leaf
  /// (`PlainPatterns.isLeaf`) is not visited.
  private static func collectMissing(
    _ value: TraceValue, at pattern: String, entry: SwiftTypeEntry?,
    in entries: [String: SwiftTypeEntry], skipping unresolved: Set<String>,
    leafStructs: LeafStructs, into found: inout [Missing]
  ) {
    if let key = missing(entry, value, pattern: pattern) {
      if !unresolved.contains(key) { found.append(Missing(key: key, pattern: pattern)) }
      return
    }
    guard let entry else { return }
    /// Visits `value` at `pattern` unless its entry is a leaf.
    func visit(_ value: TraceValue, at pattern: String) {
      let entry = entries[pattern]
      if let entry, PlainPatterns.isLeaf(entry) { return }
      collectMissing(
        value, at: pattern, entry: entry, in: entries, skipping: unresolved,
        leafStructs: leafStructs, into: &found)
    }
    /// Visits `items` at `pattern` unless its entry is a leaf.
    func visitAll<Items: Sequence<TraceValue>>(_ items: Items, at pattern: String) {
      let entry = entries[pattern]
      if let entry, PlainPatterns.isLeaf(entry) { return }
      let isStruct = entry?.kind == .struct
      var leafKeys = isStruct ? leafStructs.keys[pattern] : nil
      // Keys noted by an item (the first, usually) serve the items after it. Keys noted
      // before stay right if others replace them: a leaf entry stays a leaf.
      var noted = leafStructs.keys.count
      for item in items {
        if let leafKeys, case .object(let fields) = item, LeafStructs.matches(fields, leafKeys) {
          continue
        }
        collectMissing(
          item, at: pattern, entry: entry, in: entries, skipping: unresolved,
          leafStructs: leafStructs, into: &found)
        if isStruct, leafKeys == nil, leafStructs.keys.count != noted {
          noted = leafStructs.keys.count
          leafKeys = leafStructs.keys[pattern]
        }
      }
    }
    switch value {
    case .object(let fields):
      switch entry.kind {
      case .struct:
        if let keys = leafStructs.keys[pattern], LeafStructs.matches(fields, keys) { return }
        var allLeaves = true
        for field in fields {
          let fieldPattern = SwiftTypeTable.join(pattern, field.key)
          let fieldEntry = entries[fieldPattern]
          if let fieldEntry, PlainPatterns.isLeaf(fieldEntry) { continue }
          allLeaves = false
          collectMissing(
            field.value, at: fieldPattern, entry: fieldEntry, in: entries,
            skipping: unresolved, leafStructs: leafStructs, into: &found)
        }
        if allLeaves { leafStructs.keys[pattern] = fields.map(\.key) }
      case .dictionary:
        visitAll(fields.lazy.map(\.value), at: pattern + "[]")
      default:
        break
      }
    case .array(let items):
      switch entry.kind {
      case .array, .set, .identifiedArray:
        visitAll(items, at: pattern + "[]")
      case .dictionary:
        // `[key, value, key, value, …]`: a dictionary whose keys are not strings or integers.
        visitAll(
          stride(from: 1, to: items.count, by: 2).lazy.map { items[$0] }, at: pattern + "[]")
      default:
        break
      }
    case .enumCase(let name, let fields):
      if name == "Optional.some", fields.count == 1 {
        collectMissing(
          fields[0].value, at: pattern, entry: entry, in: entries, skipping: unresolved,
          leafStructs: leafStructs, into: &found)
        return
      }
      guard entry.kind == .enum else { return }
      for field in fields {
        visit(
          field.value,
          at: SwiftTypeTable.casePattern(
            pattern, case: name, field: field.key, fieldCount: fields.count))
      }
    default:
      break
    }
  }

  /// What about `value` the entry does not know yet, as a key for `unresolved`; nil when
  /// nothing.
  private static func missing(_ entry: SwiftTypeEntry?, _ value: TraceValue, pattern: String)
    -> String?
  {
    // Unknown, or an optional never seen holding a value (nil there is known).
    guard let entry else { return pattern }
    if entry.kind == .other, entry.optional == true {
      if case .null = value { return nil }
      return pattern
    }
    if case .enumCase(let name, _) = value, entry.kind == .enum,
      name != "Optional.some", !(entry.cases ?? []).contains(name)
    {
      return pattern + " case " + name
    }
    if let raw = entry.rawValues, let text = SwiftTypeTable.rawKey(value), raw[text] == nil {
      return pattern + " raw " + text
    }
    return nil
  }
}
