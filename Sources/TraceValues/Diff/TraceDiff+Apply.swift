extension TraceDiff {
  /// `apply(_:to:)` for a caller that fills one array with each step's changes and applies
  /// them once (`inspector replay`): the changes are moved out of `changes`, which is left
  /// empty with its storage kept. A change applied from the array would be copied (its path,
  /// its key and its value retained, then released); one moved out is not.
  ///
  /// The result, and the error for a change that does not fit, are `apply(_:to:)`'s: the
  /// changes before a failing one are applied.
  ///
  /// ```swift
  /// var changes: [TraceChange] = [.set(TracePath([.key("count")]), .int(2))]
  /// var state = TraceValue.object([TraceField("count", .int(1))])
  /// try TraceDiff.apply(taking: &changes, to: &state)
  /// print(state, changes.count)  // (count: 2) 0
  /// ```
  package static func apply(
    taking changes: inout [TraceChange], to value: inout TraceValue
  ) throws(TracePatchError) {
    // `popLast` moves an element out; a step's few changes are reversed first to keep order.
    if changes.count > 1 { changes.reverse() }
    // What a failing change leaves (`removeAll` goes through `replaceSubrange`, even when
    // there is nothing to remove; the loop's first `popLast` is a call, about 30
    // instructions a step when every change applied).
    defer { if !changes.isEmpty { while changes.popLast() != nil {} } }
    while let change = changes.popLast() {
      switch consume change {
      case .set(let path, let newValue)
      where path.components.count == 1 && value.isObject:
        guard case .key(let key) = path.components[0],
          setField(key, to: newValue, of: &value)
        else {
          // A new key is appended by the patcher, like any `set` of a missing field.
          var patcher = Patcher(change: .set(path, newValue))
          try patcher.apply(to: &value)
          continue
        }
      case let other:
        var patcher = Patcher(change: other)
        try patcher.apply(to: &value)
      }
    }
  }

  /// Replaces the field `key` of the object `value` (moved out of its box first, as the
  /// patcher does); false, with `value` as it was, when it has no such field. Keys match by
  /// their bytes, as everywhere in a diff. Also the patcher's shortcut for a root field.
  @inline(__always)
  static func setField(
    _ key: String, to newValue: TraceValue, of value: inout TraceValue
  ) -> Bool {
    var fields = value.takeObjectFields()
    defer { value = .object(fields) }
    for index in fields.indices where sameUTF8(fields[index].key, key) {
      fields[index].value = newValue
      return true
    }
    return false
  }
}

extension TraceValue {
  fileprivate var isObject: Bool {
    if case .object = self { return true }
    return false
  }
}
