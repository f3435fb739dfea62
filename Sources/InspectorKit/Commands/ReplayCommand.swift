import TraceKit

/// `inspector replay TRACE`: rebuilds every state from step 0 by applying each step's diff,
/// checks every state against its recorded hash and every keyframe against the rebuilt state,
/// a file's changed paths in the index against each step's changes (`ChangedPathCheck`), and
/// the effect table against the steps (`EffectTableCheck`: what it can say without the
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
    var mismatch: (step: Int, kind: Mismatch)?
    var effects = EffectTableCheck(
      effects: try source.effects(), lastStep: summary.stepCount,
      isComplete: summary.isComplete)
    let paths = TraceReader.PathCache()
    // Each state is a few changes from the one before: the words of its unchanged fields
    // are kept from one hash to the next.
    let hashes = MerkleHash.FieldMemo()
    // One array for every step's changes: its storage is reused from step to step.
    var changes: [TraceChange] = []
    // Most steps set the root field the step before set, through the path cache's same path:
    // the field is set again by its place.
    var applier = TraceDiff.RepeatedRootSet()
    var changedPaths = ChangedPathCheck()
    // The steps are read on a second thread (`ReplayReadAhead`) while this one applies,
    // hashes and checks them; the source is this thread's again after `finish()`.
    let readAhead = ReplayReadAhead(source: source, through: summary.stepCount)
    let ended = readAhead.forEach { item, block in
      let step = item.step
      rebuilt += 1
      effects.observe(step: step, origin: item.origin)
      let hasLine: Bool
      // What the step's changes name when the index names other paths; reported only once
      // the diff applied and the hash matched (those failures say more).
      var named: [String]?
      do throws(TraceError) {
        hasLine = try block.changes(of: item, cachingPathsIn: paths, into: &changes)
      } catch {
        unreadable = TraceFileSource.inspectorError(error)
        return false
      }
      if hasLine {
        let keptHead = paths.keptSetHead
        if item.pathSet >= 0,
          !changedPaths.knowsKeptHead(set: block.pathSetIDs[Int(item.pathSet)], head: keptHead)
        {
          named = changedPathMismatch(
            changes, of: item, in: block, state: &state, check: &changedPaths,
            keptHead: keptHead)
        }
        // Only a failure is stored: writing `failure` at every step destroys the old value
        // through a generic witness.
        if let error = apply(
          taking: &changes, to: &state, with: &applier, step: step, context: context)
        {
          failure = error
          return false
        }
      }
      if let rare = block.rare(of: item) {
        if case .some = rare.base {
          // The state is built another way: the applier's field is not known in it.
          applier.forget()
        }
        switch rare.base {
        case nil:
          break
        case .unreadable(let error)?:
          unreadable = error
          return false
        case .state(let whole)?:
          state = whole
          if step != 0 { resumed += 1 }
        case .changes(let changes)?:
          if let error = apply(changes, to: &state, step: step, context: context) {
            failure = error
            return false
          }
        }
        if let error = rare.keyframeFailure {
          unreadable = error
          return false
        }
        if let keyframe = rare.keyframe {
          guard keyframe == state else {
            mismatch = (step, .keyframe(keyframe))
            return false
          }
          keyframes += 1
        }
      }
      let hash = stableHash(of: &state, memo: hashes)
      if hash != item.stateHash {
        mismatch = (step, .hash(hash))
        return false
      }
      if let named {
        mismatch = (
          step, .changedPaths(index: block.pathSets[Int(item.pathSet)].texts, named: named)
        )
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
    readAhead.finish()
    if let ended { unreadable = ended }
    if showProgress {
      err.write("\r\u{1B}[K")
      err.flush()
    }
    if let mismatch {
      // The step's row again, for its action path: the reading thread hands over only what
      // the checks use.
      let entry = try row(at: mismatch.step, of: source, context: context)
      switch mismatch.kind {
      case .keyframe(let keyframe):
        report(
          "keyframe differs from the rebuilt state", entry, old: keyframe, new: state,
          context: context, out: &out)
        failure = .init(
          .checkFailed, "replay check failed: keyframe mismatch",
          where: context.location(step: entry.step))
      case .hash(let hash):
        // Holding the previous state on every step would copy it at each diff (copy on
        // write); on the one failure, rebuild it from the last step that matched instead.
        let previous: TraceValue
        do throws(InspectorError) {
          previous = lastStep < 0 ? .null : try source.state(at: lastStep)
        } catch {
          unreadable = error
          break
        }
        report(
          "recorded hash \(HashText.hex(entry.stateHash)), rebuilt \(HashText.hex(hash)); "
            + "the step's diff as replayed",
          entry, old: previous, new: state, context: context, out: &out)
        failure = .init(
          .checkFailed, "replay check failed: state hash mismatch",
          where: context.location(step: entry.step))
      case .changedPaths(let index, let named):
        out.write(
          context.style.bold("step \(entry.step): " + EscapedText.plain(entry.actionPath)) + "\n")
        out.write("the index's changed paths: " + listed(index) + "\n")
        out.write("the step's changes change: " + listed(named) + "\n")
        failure = .init(
          .checkFailed,
          "replay check failed: the index's changed paths do not match the step's changes",
          where: context.location(step: entry.step))
      }
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
          ? ""
          : resumed == summary.gaps.count && resumed == 1
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

  /// What `changes` name when `item`'s changed-path set is not that (`ChangedPathCheck`).
  /// Out of the step closure (not inlined), with the state read through `inout`: inlined, the
  /// check left the closure unspecialized, retaining five times a step (about 380
  /// instructions).
  @inline(never)
  static func changedPathMismatch(
    _ changes: [TraceChange], of item: ReplayReadAhead.Item, in block: ReplayReadAhead.Block,
    state: inout TraceValue, check: inout ChangedPathCheck, keptHead: Int?
  ) -> [String]? {
    let set = Int(item.pathSet)
    return check.mismatch(
      changes, set: block.pathSetIDs[set], texts: block.pathSets[set].texts, before: &state,
      keptHead: keptHead)
  }

  /// Applies a step's diff; the failure when it does not apply.
  static func apply(
    _ changes: [TraceChange], to state: inout TraceValue, step: Int, context: CommandContext
  ) -> InspectorError? {
    do {
      try TraceDiff.apply(changes, to: &state)
      return nil
    } catch {
      return diffFailure(error, step: step, context: context)
    }
  }

  /// `apply(_:to:step:context:)` with the changes moved out of `changes` (left empty),
  /// through `applier` (`TraceDiff.RepeatedRootSet`).
  static func apply(
    taking changes: inout [TraceChange], to state: inout TraceValue,
    with applier: inout TraceDiff.RepeatedRootSet, step: Int, context: CommandContext
  ) -> InspectorError? {
    do {
      try applier.apply(taking: &changes, to: &state)
      return nil
    } catch {
      return diffFailure(error, step: step, context: context)
    }
  }

  static func diffFailure(
    _ error: TracePatchError, step: Int, context: CommandContext
  ) -> InspectorError {
    .init(
      .checkFailed, "replay check failed: the diff does not apply: \(error)",
      where: context.location(step: step))
  }

  /// The state's hash, read through `inout`: the state the step closure captures would
  /// otherwise be copied out (retained and released) to be hashed, at every step.
  static func stableHash(of state: inout TraceValue, memo: MerkleHash.FieldMemo) -> UInt64 {
    memo.hash(state)
  }

  /// The index row of `step`, which the replay read a moment ago.
  static func row(
    at step: Int, of source: any TraceSource, context: CommandContext
  ) throws(InspectorError) -> StepRow {
    var found: StepRow?
    try source.forEachStep(from: step, to: step) { row in
      found = row
      return false
    }
    guard let found else {
      throw .input("the index has no row for this step", where: context.location(step: step))
    }
    return found
  }

  /// What a step failed on, reported once the reading thread is done with the source.
  enum Mismatch {
    case keyframe(TraceValue)
    /// The rebuilt state's hash.
    case hash(UInt64)
    /// The index's changed-path set, and the paths the step's changes change.
    case changedPaths(index: [String], named: [String])
  }

  /// Paths as a line: each escaped, separated by commas; `(none)` for none.
  static func listed(_ paths: [String]) -> String {
    paths.isEmpty ? "(none)" : paths.map(EscapedText.plain).joined(separator: ", ")
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
