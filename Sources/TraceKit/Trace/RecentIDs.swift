/// The ids a writer gave the distinct values of an interned column (`actions`, `path_sets`),
/// numbered from 0 in order of first use, with the last two values looked up kept beside the
/// table: steps mostly repeat the last value or alternate between two (`plus`, `minus`; a
/// toggle's row, then the search's query), and comparing them costs less than hashing.
///
/// ```swift
/// var ids = RecentIDs<String>()
/// try ids.id(of: "plus") { id in print("insert", id) }   // insert 0, returns 0
/// try ids.id(of: "minus") { id in print("insert", id) }  // insert 1, returns 1
/// try ids.id(of: "plus") { _ in }                        // returns 0, nothing inserted
/// ```
struct RecentIDs<Value: Hashable> {
  private var ids: [Value: Int] = [:]
  private var last: (value: Value, id: Int)?
  private var beforeLast: (value: Value, id: Int)?

  /// The id of `value`. A value not seen before gets the next id, which `insert` stores
  /// first: when it throws, the value stays unknown.
  mutating func id(of value: Value, insert: (Int) throws(TraceError) -> Void)
    throws(TraceError) -> Int
  {
    if let last, last.value == value { return last.id }
    if let before = beforeLast, before.value == value {
      beforeLast = last
      last = before
      return before.id
    }
    let id: Int
    if let known = ids[value] {
      id = known
    } else {
      id = ids.count
      try insert(id)
      ids[value] = id
    }
    beforeLast = last
    last = (value, id)
    return id
  }
}
