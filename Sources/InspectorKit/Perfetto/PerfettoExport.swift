import TraceKit

/// `inspector export TRACE --format perfetto`: the trace, or a range of it, as a timeline in
/// the Chrome Trace Event Format (JSON) that ui.perfetto.dev, chrome://tracing and Speedscope
/// open, streamed step by step (see `PerfettoTimeline` for what is drawn and how).
///
/// ```
/// $ inspector export bug.rewind --format perfetto > bug.json   # then open it in Perfetto
/// ```
///
/// The document: `{"otherData": {…}, "traceEvents": [ … ]}`; times are microseconds since the
/// trace started, from its monotonic clock, exact to the nanosecond.
enum PerfettoExport {
  static let version = 1

  static func run(
    _ source: any TraceSource, summary: TraceSummary, from: Int, to: Int,
    out: inout some FlushingOutput
  ) throws(InspectorError) {
    out.write("{\"otherData\":" + otherData(source, summary: summary, from: from, to: to).text)
    out.write(",\n\"traceEvents\":[")
    do throws(InspectorError) {
      var timeline = PerfettoTimeline(
        gaps: summary.gaps,
        effects: try source.effectStream(startedFrom: from, through: to), file: source.path)
      for event in names(summary) { timeline.write(event) }
      out.write(timeline.take())
      try source.forEachStep(from: from, to: to) { step throws(InspectorError) in
        try timeline.add(step)
        out.write(timeline.take())
        return true
      }
      try timeline.finish()
      out.write(timeline.take())
    } catch {
      // A document that damage ends early stays valid JSON and says why it ends there.
      out.write("\n],\n\"error\":" + JSONOutput.quoted(error.message) + "}\n")
      throw error
    }
    out.write("\n]}\n")
  }

  /// What the trace is: shown by chrome://tracing as metadata, skipped by Perfetto.
  static func otherData(_ source: any TraceSource, summary: TraceSummary, from: Int, to: Int)
    -> JSONOutput
  {
    var json = JSONOutput()
    json.object { j in
      j.field("format") { $0.string("rewind-perfetto") }
      j.field("version") { $0.int(version) }
      j.field("trace") { $0.string(source.path) }
      j.field("rootReducer") { $0.string(summary.rootReducer) }
      j.field("stateType") { $0.string(summary.stateType) }
      j.field("actionType") { $0.string(summary.actionType) }
      j.field("range") { j in
        j.object { j in
          j.field("from") { $0.int(from) }
          j.field("to") { $0.int(to) }
        }
      }
      for (key, value) in summary.extra.sorted(by: { $0.key < $1.key }) {
        j.field("extra." + key) { $0.string(value) }
      }
    }
    return json
  }

  /// The process named after the app and its root reducer, its tracks after what they show.
  static func names(_ summary: TraceSummary) -> [TraceEventJSON] {
    var process = summary.rootReducer
    if let app = summary.extra["app"] {
      process = app + (summary.extra["scenario"].map { " " + $0 } ?? "") + ": " + process
    }
    return [
      .metadata("process_name") { j in j.field("name") { $0.string(process) } },
      .metadata("thread_name", thread: PerfettoTimeline.Track.store) { j in
        j.field("name") { $0.string("store (\(summary.stateType))") }
      },
      .metadata("thread_sort_index", thread: PerfettoTimeline.Track.store) { j in
        j.field("sort_index") { $0.int(0) }
      },
      .metadata("thread_name", thread: PerfettoTimeline.Track.recorder) { j in
        j.field("name") { $0.string("recorder (dropped steps)") }
      },
      .metadata("thread_sort_index", thread: PerfettoTimeline.Track.recorder) { j in
        j.field("sort_index") { $0.int(1) }
      },
    ]
  }
}
