import TraceKit

/// The JSON fields of a step's index row, shared by `log --json`, `follow` and `export`.
///
/// ```json
/// {"step":3,"nanos":1200000,"wallTime":1780000000.25,"origin":"user",
///  "actionPath":"counter.incrementTapped","changedPaths":["counter.count"],
///  "stateHash":"9f3a…","reducerNanos":800}
/// ```
enum StepJSON {
  static func write(_ entry: StepRow, into json: inout JSONOutput) {
    json.field("step") { $0.int(entry.step) }
    json.field("nanos") { $0.uint(entry.monotonicNanos) }
    json.field("wallTime") { $0.double(entry.wallTime) }
    json.field("origin") { $0.string(entry.origin.storageText) }
    json.field("actionPath") { $0.string(entry.actionPath) }
    json.field("changedPaths") { j in
      j.array { j in
        for path in entry.changedPaths { j.string(path) }
      }
    }
    json.field("stateHash") { $0.string(HashText.hex(entry.stateHash)) }
    json.field("reducerNanos") { $0.uint(entry.reducerNanos) }
  }
}
