import TraceKit

/// `inspector replay TRACE`: rebuilds every state from step 0 by applying each step's diff,
/// checks every state against its recorded hash and every keyframe against the rebuilt state,
/// and the effect table against the steps (`EffectTableCheck`: what it can say without the
/// feature's types). It holds one state at a time (memory stays flat) and stops at the first
/// mismatch with the diff that shows it.
///
/// ```text
/// replay: 1,000,001 states rebuilt, 3,907 keyframes and every hash match; 2 effects agree
/// with the steps
/// ```
enum ReplayCommand {
  /// Below this many steps a progress line would only flicker.
  static let progressThreshold = 10_000

  static func run(
    _ context: CommandContext, out: inout some FlushingOutput, err: inout some FlushingOutput
  ) throws(InspectorError) {
    let source = context.source
    let summary = try source.summary()
    let showProgress =
      context.terminal.stderrIsTerminal
      && summary.stepCount >= progressThreshold
    var state = TraceValue.null
    var keyframes = 0
    var failure: InspectorError?
    var lastPercent = -1
    var lastStep = -1
    var resumed = 0
    var rebuilt = 0
    var unreadable: InspectorError?
    var effects = EffectTableCheck(
      effects: try source.effects(), lastStep: summary.stepCount,
      isComplete: summary.isComplete)
    do throws(InspectorError) {
      try source.forEachStepContent(from: 0, to: summary.stepCount) {
        entry, content throws(InspectorError) in
        let step = entry.step
        rebuilt += 1
        effects.observe(step: step, origin: entry.origin)
        if step == 0 {
          state = try source.state(at: 0)
        } else if step != lastStep + 1 {
          // After a gap (steps the recorder dropped) the writer stored a keyframe: start again
          // from it, since this step's diff is relative to a state that was never recorded.
          state = try source.state(at: step)
          resumed += 1
        } else {
          let changes = try content.changes()
          do {
            try TraceDiff.apply(changes, to: &state)
          } catch {
            failure = .init(
              .checkFailed, "replay check failed: the diff does not apply: \(error)",
              where: context.location(step: step))
            return false
          }
        }
        let keyframe = step > 0 ? try source.keyframe(at: step) : nil
        if let keyframe, keyframe != state {
          report(
            "keyframe differs from the rebuilt state", entry, old: keyframe, new: state,
            context: context, out: &out)
          failure = .init(
            .checkFailed, "replay check failed: keyframe mismatch",
            where: context.location(step: step))
          return false
        } else if keyframe != nil {
          keyframes += 1
        }
        let hash = state.stableHash
        if hash != entry.stateHash {
          // Holding the previous state on every step would copy it at each diff (copy on
          // write); on the one failure, rebuild it from the last step that matched instead.
          let previous = lastStep < 0 ? TraceValue.null : try source.state(at: lastStep)
          report(
            "recorded hash \(HashText.hex(entry.stateHash)), rebuilt \(HashText.hex(hash)); "
              + "the step's diff as replayed",
            entry, old: previous, new: state, context: context, out: &out)
          failure = .init(
            .checkFailed, "replay check failed: state hash mismatch",
            where: context.location(step: step))
          return false
        }
        lastStep = step
        if showProgress {
          let percent = step * 100 / max(1, summary.stepCount)
          if percent != lastPercent {
            lastPercent = percent
            err.write(
              "\rreplay: \(percent)% (\(NumberText.grouped(step))/"
                + "\(NumberText.grouped(summary.stepCount)))")
            err.flush()
          }
        }
        return true
      }
    } catch {
      unreadable = error
    }
    if showProgress {
      err.write("\r\u{1B}[K")
      err.flush()
    }
    if let unreadable {
      guard case .missingIndexRows? = unreadable.cause else { throw unreadable }
      // Rows deleted from the index: the trace does not hold what it says it holds.
      throw InspectorError(
        .checkFailed, "replay check failed: " + unreadable.what, where: unreadable.location)
    }
    if let failure { throw failure }
    guard effects.problems.isEmpty else {
      out.write(context.style.bold("the effect table disagrees with the steps:") + "\n")
      for problem in effects.problems { out.write("  " + EscapedText.plain(problem) + "\n") }
      throw InspectorError(
        .checkFailed, "replay check failed: the effects disagree with the steps",
        where: context.location())
    }
    let dropped = summary.droppedSteps
    var gaps = ""
    if dropped > 0 {
      gaps =
        " (" + NumberText.counted(dropped, "step") + " dropped in "
        + NumberText.counted(summary.gaps.count, "gap")
        + (resumed == 0
          ? "" : resumed == summary.gaps.count && resumed == 1
            ? "; restarted from the keyframe after it"
            : "; restarted from a keyframe after " + NumberText.counted(resumed, "gap"))
        + ")"
    }
    let agree = summary.effectCount == 1 ? "agrees" : "agree"
    out.write(
      "replay: " + NumberText.counted(rebuilt, "state") + " rebuilt, "
        + NumberText.counted(keyframes + 1, "keyframe") + " and every hash match" + gaps + "; "
        + NumberText.counted(summary.effectCount, "effect") + " \(agree) with the steps\n")
  }

  static func report(
    _ what: String, _ entry: StepRow, old: TraceValue, new: TraceValue,
    context: CommandContext, out: inout some FlushingOutput
  ) {
    out.write(
      context.style.bold("step \(entry.step): " + EscapedText.plain(entry.actionPath)) + "\n")
    out.write(what + ":\n")
    DiffRenderer(width: context.terminal.width)
      .render(from: old, to: new, into: &out, paint: context.style.diff)
  }
}
