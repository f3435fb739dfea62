import TraceKit
import TraceValues

/// An action case whose values can bring no type the action table lacks, whatever their
/// payload: the case is known, and each associated value is no enum and sits at a plain
/// pattern (`PlainPatterns.isPlain`: a leaf or a collection of leaves, never a struct), which
/// stays plain as the table only grows. A value of
/// the same case with the same labels and no enum among them needs no look-up.
///
/// ```swift
/// // .toggleCompleted(id: UUID): case known, `toggleCompleted.id` a plain UUID entry
/// let closed = ClosedActionCase(value, in: table.action)   // not nil
/// closed?.matches(otherToggle)                              // true
/// ```
struct ClosedActionCase {
  let name: String
  let keys: [String]

  /// Nil when a value of this case could still bring a type (an enum or an optional among
  /// its values, a pattern not plain or not known yet).
  init?(_ value: TraceValue, in entries: [String: SwiftTypeEntry]) {
    guard case .enumCase(let name, let fields) = value, name != "Optional.some",
      let entry = entries[""], entry.kind == .enum, entry.cases?.contains(name) == true
    else { return nil }
    for field in fields {
      if case .enumCase = field.value { return nil }
      let pattern = SwiftTypeTable.casePattern(
        "", case: name, field: field.key, fieldCount: fields.count)
      guard PlainPatterns.isPlain(pattern, in: entries) else { return nil }
    }
    self.name = name
    keys = fields.map(\.key)
  }

  /// Whether `value` is this case with the same labels and no enum among its values.
  func matches(_ value: TraceValue) -> Bool {
    guard case .enumCase(let other, let fields) = value, other == name,
      fields.count == keys.count
    else { return false }
    for (field, key) in zip(fields, keys) {
      guard field.key == key else { return false }
      if case .enumCase = field.value { return false }
    }
    return true
  }
}
