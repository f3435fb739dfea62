extension TraceReader {
  /// The Swift type table the recorder stored (`SwiftTypeTable`), or nil for a trace recorded
  /// before it had one — or whose table is not readable, which a reader treats the same way.
  ///
  /// ```swift
  /// try reader.swiftTypes()?.state["count"]?.kind  // .integer
  /// ```
  public func swiftTypes() throws(TraceError) -> SwiftTypeTable? {
    let text: String?
    do {
      text = try Self.metaValue(database, TraceSchema.Key.swiftTypes)
    } catch {
      throw queryError(error)
    }
    return text.flatMap(SwiftTypeTable.init(jsonText:))
  }

  /// The dependency keys the recorded feature read (`DependencyKeyRecord`), or nil for a trace
  /// recorded before traces listed them (or whose list is not readable).
  ///
  /// ```swift
  /// try reader.dependencyKeys()?.map(\.valueType)  // ["CounterFeature.MessageClient"]
  /// ```
  public func dependencyKeys() throws(TraceError) -> [DependencyKeyRecord]? {
    let text: String?
    do {
      text = try Self.metaValue(database, TraceSchema.Key.dependencyKeys)
    } catch {
      throw queryError(error)
    }
    return text.flatMap(DependencyKeyRecord.records(jsonText:))
  }
}
