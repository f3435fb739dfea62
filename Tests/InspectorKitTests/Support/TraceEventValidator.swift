import Foundation

/// Checks a document against the documented rules of the Chrome Trace Event Format (the
/// JSON that Perfetto, chrome://tracing and Speedscope load) and against what Perfetto's
/// importer needs to draw it as meant. Independent of the exporter: it parses with
/// `JSONDecoder`, and knows only the format.
///
/// ```swift
/// let problems = TraceEventValidator.problems(in: data)
/// XCTAssertEqual(problems, [])
/// ```
///
/// The rules:
/// - the document is an object whose `traceEvents` is an array of event objects;
/// - every event has a known phase `ph`, a string `name`, integer `pid` and `tid`, and every
///   event but metadata a numeric `ts` ≥ 0; a complete event (`X`) a `dur` ≥ 0; async events
///   (`b`, `n`, `e`) a `cat` and an `id`; metadata (`M`) names a process or thread in
///   `args.name`, or orders it in `args.sort_index`;
/// - timestamps never go back on a track: a thread (`pid`, `tid`) for slices, an async id
///   (`cat`, `id`) for async events;
/// - slices on a thread nest or follow each other, never overlap in part;
/// - async events pair: each `e` ends the innermost open `b` of its id with the same name,
///   an `n` falls inside an open `b`, and nothing is left open;
/// - flows (`bind_id` with `flow_out`/`flow_in`, on an event that is a slice): each id is
///   begun once (`flow_out` alone), earlier in the document and in time than any event that
///   continues or ends it (`flow_in`), and every flow begun is ended. At the same time only a
///   complete slice (`X`) may begin a flow that another kind of event ends: Perfetto sorts
///   events of one time with complete slices first, so only then is the order certain.
enum TraceEventValidator {
  struct Document: Decodable {
    var traceEvents: [Event]
  }

  struct Event: Decodable {
    var ph: String
    var name: String?
    var cat: String?
    var ts: Double?
    var dur: Double?
    var pid: Int?
    var tid: Int?
    var id: String?
    var bind_id: Int?
    var flow_in: Bool?
    var flow_out: Bool?
    var args: [String: JSONValue]?
  }

  enum JSONValue: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), null, array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Double.self) {
        self = .number(value)
      } else if let value = try? container.decode(String.self) {
        self = .string(value)
      } else if let value = try? container.decode([JSONValue].self) {
        self = .array(value)
      } else {
        self = .object(try container.decode([String: JSONValue].self))
      }
    }
  }

  static let phases: Set<String> = ["B", "E", "X", "i", "I", "b", "n", "e", "M", "C"]
  static let slicePhases: Set<String> = ["B", "X", "b", "n"]

  /// Every rule the document breaks, one line each (empty when it is valid).
  static func problems(in data: Data) -> [String] {
    let document: Document
    do {
      document = try JSONDecoder().decode(Document.self, from: data)
    } catch {
      return ["not a trace event document: \(error)"]
    }
    var problems: [String] = []
    var lastTime: [String: Double] = [:]
    var openSlices: [String: [Double]] = [:]
    var openAsync: [String: [String]] = [:]
    var flows: [Int: (begun: Double, phase: String, ended: Bool)] = [:]
    for (index, event) in document.traceEvents.enumerated() {
      func problem(_ text: String) { problems.append("event \(index) (\(event.ph)): \(text)") }
      guard phases.contains(event.ph) else {
        problem("unknown phase")
        continue
      }
      guard let name = event.name else {
        problem("no name")
        continue
      }
      guard let pid = event.pid, let tid = event.tid else {
        problem("no pid or tid")
        continue
      }
      if event.ph == "M" {
        switch name {
        case "process_name", "thread_name":
          guard case .string? = event.args?["name"] else {
            problem("\(name) without args.name")
            continue
          }
        case "process_sort_index", "thread_sort_index":
          guard case .number? = event.args?["sort_index"] else {
            problem("\(name) without args.sort_index")
            continue
          }
        default:
          problem("unknown metadata \(name)")
        }
        continue
      }
      guard let ts = event.ts, ts >= 0 else {
        problem("no ts, or a negative one")
        continue
      }
      let isAsync = ["b", "n", "e"].contains(event.ph)
      let track: String
      if isAsync {
        guard let category = event.cat, let id = event.id else {
          problem("async event without cat and id")
          continue
        }
        track = "async \(category) \(id)"
      } else {
        track = "thread \(pid) \(tid)"
      }
      if let last = lastTime[track], ts < last {
        problem("ts \(ts) goes back on \(track) (last \(last))")
      }
      lastTime[track] = ts
      switch event.ph {
      case "X":
        guard let duration = event.dur, duration >= 0 else {
          problem("complete event without a dur ≥ 0")
          continue
        }
        var stack = openSlices[track, default: []]
        while let end = stack.last, end <= ts { stack.removeLast() }
        if let end = stack.last, ts + duration > end {
          problem("slice \(name) at \(ts) overlaps the slice ending at \(end) in part")
        }
        stack.append(ts + duration)
        openSlices[track] = stack
      case "b":
        openAsync[track, default: []].append(name)
      case "n":
        if openAsync[track, default: []].isEmpty { problem("instant outside any open slice") }
      case "e":
        if openAsync[track]?.last == name {
          openAsync[track]?.removeLast()
        } else {
          problem("end of \(name) matches no open begin on \(track)")
        }
      default:
        break
      }
      if let flow = event.bind_id {
        let isIn = event.flow_in ?? false
        let isOut = event.flow_out ?? false
        if !slicePhases.contains(event.ph) { problem("flow \(flow) on an event without a slice") }
        if !isIn && !isOut { problem("flow \(flow) without a direction") }
        if isIn {
          if let begun = flows[flow] {
            if begun.begun > ts || begun.begun == ts && (begun.phase != "X" || event.ph == "X") {
              problem("flow \(flow) continues at \(ts), not after it began")
            }
            flows[flow]?.ended = true
          } else {
            problem("flow \(flow) continues or ends before it began")
          }
        } else if isOut {
          if flows[flow] != nil { problem("flow \(flow) begins twice") }
          flows[flow] = (ts, event.ph, false)
        }
      }
    }
    for (track, names) in openAsync.sorted(by: { $0.key < $1.key }) where !names.isEmpty {
      problems.append("\(track): \(names.joined(separator: ", ")) never ended")
    }
    for (flow, state) in flows.sorted(by: { $0.key < $1.key }) where !state.ended {
      problems.append("flow \(flow) begins and never ends")
    }
    return problems
  }
}
