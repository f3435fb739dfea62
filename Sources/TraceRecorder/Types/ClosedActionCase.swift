import TraceKit
import TraceValues

/// An action case whose values can bring no type the action table lacks, whatever their
/// payload: the case is known, and each associated value is either an enum value of a closed
/// case itself (a child's action: the same, one level down) or sits at a plain pattern
/// (`PlainPatterns.isPlain`: a leaf or a collection of leaves, never a struct), which stays
/// plain as the table only grows. A value of the same cases with the same labels, and no
/// enum where a plain value was, needs no look-up: `SwiftTypeCollector.collectMissing` would
/// find nothing in it.
///
/// ```swift
/// // .toggleCompleted(id: UUID): case known, `toggleCompleted.id` a plain UUID entry
/// let closed = ClosedActionCase(value, in: table.action)   // not nil
/// closed?.matches(otherToggle)                              // true
/// // .todos(.move(fromOffsets: [0], toOffset: 2)): `todos` a known case of a known enum
/// // holding `move`, whose `fromOffsets` ([Int]) and `toOffset` are plain
/// closed?.matches(.todos(.move(fromOffsets: [1], toOffset: 0)))  // true
/// closed?.matches(.todos(.filterChanged(.all)))                  // false: another case
/// ```
///
/// A class: the collector reads it out of its table for every action that misses the
/// writer's cache (each step of `record.throughput.todos10k`), and a struct of a string and
/// two arrays cost three retains and releases a read where a reference costs one.
final class ClosedActionCase {
  let name: String
  let keys: [String]
  /// Per associated value: the closed case of the enum value it holds, or nil for a value at
  /// a plain pattern.
  let inner: [ClosedActionCase?]

  /// Nil when a value of this case could still bring a type (an optional among its values, a
  /// pattern not plain or not known yet, an enum value whose case is not closed).
  convenience init?(_ value: TraceValue, in entries: [String: SwiftTypeEntry]) {
    self.init(value, at: "", in: entries)
  }

  private init?(_ value: TraceValue, at pattern: String, in entries: [String: SwiftTypeEntry]) {
    guard case .enumCase(let name, let fields) = value, name != "Optional.some",
      let entry = entries[pattern], entry.kind == .enum, entry.cases?.contains(name) == true
    else { return nil }
    var inner: [ClosedActionCase?] = []
    inner.reserveCapacity(fields.count)
    for field in fields {
      let fieldPattern = SwiftTypeTable.casePattern(
        pattern, case: name, field: field.key, fieldCount: fields.count)
      if case .enumCase = field.value {
        guard let closed = ClosedActionCase(field.value, at: fieldPattern, in: entries) else {
          return nil
        }
        inner.append(closed)
      } else {
        guard PlainPatterns.isPlain(fieldPattern, in: entries) else { return nil }
        inner.append(nil)
      }
    }
    self.name = name
    keys = fields.map(\.key)
    self.inner = inner
  }

  /// Whether `value` is this case with the same labels, its enum values of the closed cases
  /// noted and no enum value where a plain one was.
  func matches(_ value: TraceValue) -> Bool {
    guard case .enumCase(let other, let fields) = value, other == name,
      fields.count == keys.count
    else { return false }
    for index in fields.indices {
      guard fields[index].key == keys[index] else { return false }
      if let closed = inner[index] {
        guard closed.matches(fields[index].value) else { return false }
      } else if case .enumCase = fields[index].value {
        return false
      }
    }
    return true
  }
}
