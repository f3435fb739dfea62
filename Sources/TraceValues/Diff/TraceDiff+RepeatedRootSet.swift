extension TraceDiff {
  /// `apply(taking:to:)` for a caller that applies one step after another to one value
  /// (`inspector replay`), where most steps set the root field the step before set, through
  /// the very same path (a parser's cache hands out one `TracePath` for the text it has seen
  /// before): such a step sets the field found then again, by its place, without reading the
  /// path (the generic apply costs about 350 instructions a step, most of them copying and
  /// destroying the path's key). Any other step is applied by `apply(taking:to:)`.
  ///
  /// The value must change only through this applier between two calls; after any other
  /// change (a whole value put in its place), call `forget()`. The field found is then still
  /// the first with its key, the one `apply(taking:to:)` sets: calls in between set values,
  /// never add, remove or move a field. Its key is checked again at each use, by its bits.
  ///
  /// ```swift
  /// let count = TracePath([.key("count")])
  /// var applier = TraceDiff.RepeatedRootSet()
  /// var changes: [TraceChange] = [.set(count, .int(2))]
  /// try applier.apply(taking: &changes, to: &state)  // finds the field count
  /// changes = [.set(count, .int(3))]
  /// try applier.apply(taking: &changes, to: &state)  // the same path: by its place
  /// ```
  package struct RepeatedRootSet {
    /// The path of the field the last call set, compared by the storage of its components;
    /// that field's place in the root object's fields, and its key (the field's own string,
    /// compared by its bits). `index` is -1 when the last call set no such field.
    private var path = TracePath()
    private var index = -1
    private var key = ""

    package init() {}

    /// Applies `changes` as `apply(taking:to:)` does, with the same result and error.
    package mutating func apply(
      taking changes: inout [TraceChange], to value: inout TraceValue
    ) throws(TracePatchError) {
      if index >= 0, setKnownField(taking: &changes, of: &value) { return }
      learn(changes, value)
      try TraceDiff.apply(taking: &changes, to: &value)
    }

    /// Forgets the field: the value changed other than through this applier.
    package mutating func forget() {
      index = -1
    }

    /// Sets the known field when `changes` is one `set` through the known path, taking it;
    /// false, with both as they were, otherwise (or when the value's field there is not the
    /// one found before).
    @inline(__always)
    private func setKnownField(
      taking changes: inout [TraceChange], of value: inout TraceValue
    ) -> Bool {
      guard changes.count == 1, case .object = value else { return false }
      // Taken before they are looked at, and the change before it is matched: a binding of
      // either retains and releases it.
      var fields = value.takeObjectFields()
      defer { value = .object(fields) }
      guard index < fields.count, sameBits(fields[index].key, key) else { return false }
      switch changes.removeLast() {
      case .set(let path, let newValue) where Self.same(path, self.path):
        fields[index].value = newValue
        return true
      case let other:
        changes.append(other)
        return false
      }
    }

    /// Whether two paths hold the same storage of components (the same path, handed out
    /// twice).
    @inline(__always)
    private static func same(_ a: TracePath, _ b: TracePath) -> Bool {
      a.components.withUnsafeBufferPointer { a in
        b.components.withUnsafeBufferPointer { b in
          a.baseAddress == b.baseAddress && a.count == b.count
        }
      }
    }

    /// Finds the root field that `changes`, when they are one `set` of a root field the
    /// value holds, set (the first with its key, as `setField` finds it).
    private mutating func learn(_ changes: [TraceChange], _ value: TraceValue) {
      index = -1
      guard changes.count == 1, case .set(let path, _) = changes[0],
        path.components.count == 1, case .key(let name) = path.components[0],
        case .object(let fields) = value,
        let found = fields.firstIndex(where: { sameUTF8($0.key, name) })
      else { return }
      self.path = path
      index = found
      key = fields[found].key
    }
  }
}
