import ComposableCore
import TraceKit

/// The dependency keys a writer has stored in its trace: it stores the list again only when the
/// store's log has more (one atomic load per step otherwise).
///
/// ```swift
/// var keys = WrittenDependencyKeys()
/// try keys.write(session.dependencyKeyLog, to: trace)  // stores [MessageClientKey] once
/// ```
struct WrittenDependencyKeys {
  private(set) var records: [DependencyKeyRecord] = []

  mutating func write(_ log: DependencyKeyLog?, to trace: TraceWriter) throws(TraceError) {
    guard let log, log.count > records.count else { return }
    records += log.keys(from: records.count).map {
      DependencyKeyRecord(
        keyType: StableTypeName.of($0.keyType), valueType: StableTypeName.of($0.valueType))
    }
    try trace.setDependencyKeys(records)
  }
}
