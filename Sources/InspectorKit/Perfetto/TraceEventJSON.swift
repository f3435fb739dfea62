/// One event of the Chrome Trace Event Format, written as one line of JSON: the only place
/// that knows the format's field names, so a faster JSON writer can take its place alone.
///
/// ```swift
/// var event = TraceEventJSON(phase: "X", name: "plus", category: "step", nanos: 1_500)
/// event.durationNanos = 250
/// event.text  // {"ph":"X","cat":"step","name":"plus","ts":1.500,"dur":0.250,"pid":1,"tid":1}
/// ```
///
/// Times are microseconds (the format's unit) written from whole nanoseconds with exactly
/// three decimals, so no precision is lost and nothing depends on floating-point printing.
struct TraceEventJSON {
  var phase: String
  var name: String
  var category: String?
  var nanos: UInt64?
  var durationNanos: UInt64?
  var processID = 1
  var threadID = 1
  /// The id of an async event (`b`, `e`, `n`): events with the same category and id form one
  /// async slice.
  var asyncID: String?
  /// A flow (version 2 of the format's flows, which Perfetto binds to the event's slice).
  var flow: Flow?
  /// The event's `args` object, already written.
  var args: JSONOutput?

  struct Flow {
    var id: Int
    var isIn: Bool
    var isOut: Bool
  }

  init(phase: String, name: String, category: String? = nil, nanos: UInt64? = nil) {
    self.phase = phase
    self.name = name
    self.category = category
    self.nanos = nanos
  }

  var text: String {
    var json = JSONOutput()
    json.object { j in
      j.field("ph") { $0.string(phase) }
      if let category { j.field("cat") { $0.string(category) } }
      if let asyncID { j.field("id") { $0.string(asyncID) } }
      j.field("name") { $0.string(name) }
      if let nanos { j.field("ts") { $0.raw(Self.microseconds(nanos)) } }
      if let durationNanos { j.field("dur") { $0.raw(Self.microseconds(durationNanos)) } }
      j.field("pid") { $0.int(processID) }
      j.field("tid") { $0.int(threadID) }
      if let flow {
        j.field("bind_id") { $0.int(flow.id) }
        if flow.isIn { j.field("flow_in") { $0.bool(true) } }
        if flow.isOut { j.field("flow_out") { $0.bool(true) } }
      }
      if let args { j.field("args") { $0.raw(args.text) } }
    }
    return json.text
  }

  /// A metadata event naming a process or thread (`process_name`, `thread_name`) or ordering
  /// it (`process_sort_index`, `thread_sort_index`).
  static func metadata(_ name: String, thread: Int = 0, _ body: (inout JSONOutput) -> Void)
    -> TraceEventJSON
  {
    var event = TraceEventJSON(phase: "M", name: name)
    event.threadID = thread
    var args = JSONOutput()
    args.object(body)
    event.args = args
    return event
  }

  /// `1234.567` for 1,234,567 ns.
  static func microseconds(_ nanos: UInt64) -> String {
    let fraction = String(nanos % 1_000)
    return String(nanos / 1_000) + "." + String(repeating: "0", count: 3 - fraction.count)
      + fraction
  }
}
