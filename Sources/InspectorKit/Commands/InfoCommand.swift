import TraceValues

/// `inspector info TRACE [--json]`: what the trace is, from its header and index alone.
///
/// ```text
/// format     1
/// reducer    AppFeature
/// state      AppFeature.State
/// action     AppFeature.Action
/// steps      1,000,000 (keyframe every 256)
/// …
/// ```
enum InfoCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let summary = try context.source.summary()
    if context.arguments.flag("--json") {
      out.write(json(summary) + "\n")
      return
    }
    var rows: [(String, String)] = [
      ("format", "\(summary.formatVersion)"),
      ("reducer", summary.rootReducer),
      ("state", summary.stateType),
      ("action", summary.actionType),
      ("steps", stepsText(summary)),
      ("effects", NumberText.grouped(summary.effectCount)),
    ]
    if !summary.gaps.isEmpty {
      let dropped = summary.gaps.reduce(0) { $0 + $1.dropped }
      rows.append(
        ("gaps", "\(summary.gaps.count), \(NumberText.grouped(dropped)) steps dropped"))
    }
    if let first = summary.firstWallTime, let last = summary.lastWallTime {
      rows.append(("time", timeSpan(first, last)))
    }
    rows.append(("file", NumberText.bytes(summary.fileSize)))
    let ratio =
      summary.payloadCompressedBytes > 0
      ? NumberText.fixed(
        Double(summary.payloadUncompressedBytes) / Double(summary.payloadCompressedBytes)) + "×"
      : "–"
    rows.append(
      (
        "payloads",
        NumberText.bytes(summary.payloadUncompressedBytes) + " in "
          + NumberText.bytes(summary.payloadCompressedBytes) + " (" + ratio + ")"
      ))
    rows.append(
      (
        "complete",
        summary.isComplete
          ? "yes" : summary.isWriterGone ? "no (writer gone)" : "no (being written)"
      ))
    // The recorded metadata, quoted like any recorded string: a key named "steps" or
    // "complete" must not pass for the rows above.
    for key in summary.extra.keys.sorted() {
      rows.append((EscapedText.quoted(key), EscapedText.quoted(summary.extra[key] ?? "")))
    }
    let width = rows.map(\.0.count).max() ?? 0
    for (name, value) in rows {
      out.write(
        context.style.bold(HelpText.padded(EscapedText.plain(name), width)) + "  "
          + EscapedText.plain(value) + "\n")
    }
  }

  /// `27 (keyframe every 256)`; with dropped steps, how many actions were sent and how many
  /// the trace holds: `32 sent, 27 recorded (keyframe every 256)`.
  static func stepsText(_ summary: TraceSummary) -> String {
    let keyframes = " (keyframe every \(summary.keyframeInterval))"
    guard summary.droppedSteps > 0 else {
      return NumberText.grouped(summary.stepCount) + keyframes
    }
    return NumberText.grouped(summary.sentSteps) + " sent, "
      + NumberText.grouped(summary.recordedSteps) + " recorded" + keyframes
  }

  /// `2026-05-28 20:26:40Z … 20:26:41.500 (1.5s)`; the end's date only when it differs.
  static func timeSpan(_ first: Double, _ last: Double) -> String {
    guard NumberText.isPlausibleTime(first), NumberText.isPlausibleTime(last) else {
      return "? (the recorded times are not valid)"
    }
    let sameDay = (first / 86_400).rounded(.down) == (last / 86_400).rounded(.down)
    let end = sameDay ? NumberText.clock(last) : NumberText.dateTime(last)
    let seconds = last - first
    let span =
      seconds >= 0 && seconds < 1.8e10 ? NumberText.duration(nanos: UInt64(seconds * 1e9)) : "?"
    return NumberText.dateTime(first) + " … " + end + " (" + span + ")"
  }

  static func json(_ summary: TraceSummary) -> String {
    var json = JSONOutput()
    json.object { j in
      j.field("formatVersion") { $0.int(summary.formatVersion) }
      j.field("rootReducer") { $0.string(summary.rootReducer) }
      j.field("stateType") { $0.string(summary.stateType) }
      j.field("actionType") { $0.string(summary.actionType) }
      j.field("keyframeInterval") { $0.int(summary.keyframeInterval) }
      j.field("steps") { $0.int(summary.stepCount) }
      j.field("sentSteps") { $0.int(summary.sentSteps) }
      j.field("recordedSteps") { $0.int(summary.recordedSteps) }
      j.field("effects") { $0.int(summary.effectCount) }
      j.field("gaps") { j in
        j.array { j in
          for gap in summary.gaps {
            j.object { j in
              j.field("afterStep") { $0.int(gap.afterStep) }
              j.field("dropped") { $0.int(gap.dropped) }
            }
          }
        }
      }
      j.field("firstWallTime") { $0.optional(summary.firstWallTime) { $0.double($1) } }
      j.field("lastWallTime") { $0.optional(summary.lastWallTime) { $0.double($1) } }
      j.field("fileSize") { $0.int(summary.fileSize) }
      j.field("payloadCompressedBytes") { $0.int(summary.payloadCompressedBytes) }
      j.field("payloadUncompressedBytes") { $0.int(summary.payloadUncompressedBytes) }
      j.field("complete") { $0.bool(summary.isComplete) }
      j.field("writerGone") { $0.bool(summary.isWriterGone) }
      j.field("extra") { j in
        j.object { j in
          for key in summary.extra.keys.sorted() {
            j.field(key) { $0.string(summary.extra[key] ?? "") }
          }
        }
      }
    }
    return json.text
  }
}
