/// The ids a writer gave the distinct values of an interned column (`actions`, `path_sets`),
/// numbered from 0 in order of first use. A value is looked for from the cheapest compare to
/// the exact one:
///
/// 1. the last two values looked up, by their bits (`InternedValue.sameBits`): steps mostly
///    repeat the last value or alternate between two (`plus`, `minus`; a toggle's row, then
///    the search's query);
/// 2. values met more than once, by a key cheaper to hash than the row's (`quickKey`);
/// 3. every value, by the key that makes one row (`rowKey`), which gives new values their id.
///
/// Each step only finds an id the next one would: the ids are the ones the row table alone
/// gives.
///
/// ```swift
/// var ids = RecentIDs<String>()
/// try ids.id(of: "plus") { id in print("insert", id) }   // insert 0, returns 0
/// try ids.id(of: "minus") { id in print("insert", id) }  // insert 1, returns 1
/// try ids.id(of: "plus") { _ in }                        // returns 0, nothing inserted
/// ```
struct RecentIDs<Value: InternedValue> {
  private var last: (value: Value, id: Int)?
  private var beforeLast: (value: Value, id: Int)?
  /// Kept only for values met again: a recording whose values keep coming in new storage
  /// (a toggle of one of 10,000 rows names a new set each step) would only fill it. Bounded
  /// for the same reason.
  private var quickIDs: [Value.QuickKey: Int] = [:]
  private var ids: [Value.RowKey: Int] = [:]
  static var quickLimit: Int { 4_096 }

  /// The id of `value`. A value not seen before gets the next id, which `insert` stores
  /// first: when it throws, the value stays unknown.
  @inline(__always)
  mutating func id(of value: Value, insert: (Int) throws(TraceError) -> Void)
    throws(TraceError) -> Int
  {
    if let last, Value.sameBits(last.value, value) { return last.id }
    if let before = beforeLast, Value.sameBits(before.value, value) {
      beforeLast = last
      last = before
      return before.id
    }
    let id = try idByKeys(value, insert: insert)
    beforeLast = last
    last = (value, id)
    return id
  }

  private mutating func idByKeys(_ value: Value, insert: (Int) throws(TraceError) -> Void)
    throws(TraceError) -> Int
  {
    let quick = value.quickKey
    if let known = quickIDs[quick] { return known }
    let row = value.rowKey
    if let known = ids[row] {
      if quickIDs.count >= Self.quickLimit { quickIDs.removeAll(keepingCapacity: true) }
      quickIDs[quick] = known
      return known
    }
    let id = ids.count
    try insert(id)
    ids[row] = id
    return id
  }
}
