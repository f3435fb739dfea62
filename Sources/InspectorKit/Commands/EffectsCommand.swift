import TraceKit

/// `inspector effects TRACE [--running|--cancelled] [--step N] [--timeline] [--json]`.
///
/// ```text
/// EFFECT    STEP  CANCEL ID  OUTCOME    DURATION  SENT  SOURCE
/// 5a1c0e42     3  -          finished   250ms     1: 4  Counter.swift:41
/// ```
enum EffectsCommand {
  static func run(_ context: CommandContext, out: inout some FlushingOutput) throws(InspectorError)
  {
    let arguments = context.arguments
    if arguments.flag("--running"), arguments.flag("--cancelled") {
      throw .usage("--running and --cancelled exclude each other", where: "effects")
    }
    let summary = try context.source.summary()
    let step = try arguments.integer("--step")
    if let step { try context.checkStep(step, in: summary) }
    let effects = try context.source.effects().filter { effect in
      if let step, effect.startedByStep != step { return false }
      switch effect.outcome {
      case .running, .unfinished: if arguments.flag("--cancelled") { return false }
      case .cancelled: if arguments.flag("--running") { return false }
      case .finished:
        if arguments.flag("--cancelled") || arguments.flag("--running") { return false }
      }
      return true
    }
    if arguments.flag("--json") {
      out.write(json(effects) + "\n")
      return
    }
    if effects.isEmpty {
      out.write(context.style.dim("(no effects)") + "\n")
      return
    }
    if arguments.flag("--timeline") {
      var end: UInt64 = 0
      try context.source.forEachStep(from: summary.stepCount, to: summary.stepCount) { entry in
        end = entry.monotonicNanos
        return false
      }
      EffectTimeline(width: context.terminal.width, style: context.style)
        .render(effects, end: end, into: &out)
    } else {
      EffectTable(width: context.terminal.width, style: context.style).render(effects, into: &out)
    }
  }

  static func json(_ effects: [EffectRecord]) -> String {
    var json = JSONOutput()
    json.array { j in
      for effect in effects { write(effect, into: &j) }
    }
    return json.text
  }

  static func write(_ effect: EffectRecord, into json: inout JSONOutput) {
    json.object { j in
      j.field("id") { $0.string(effect.id.uuidString) }
      j.field("startedByStep") { $0.int(effect.startedByStep) }
      j.field("cancelID") { j in j.optional(effect.cancelID) { $0.string($1) } }
      j.field("file") { j in j.optional(effect.file) { $0.string($1) } }
      j.field("line") { j in j.optional(effect.line) { $0.int($1) } }
      j.field("startNanos") { j in j.optional(effect.startNanos) { $0.uint($1) } }
      j.field("endNanos") { j in j.optional(effect.endNanos) { $0.uint($1) } }
      j.field("outcome") { j in
        switch effect.outcome {
        case .running: j.string("running")
        case .finished: j.string("finished")
        case .unfinished: j.string("unfinished")
        case .cancelled: j.string("cancelled")
        }
      }
      if case .cancelled(let reason, let step) = effect.outcome {
        j.field("cancelReason") { $0.string(reason) }
        j.field("cancelledByStep") { j in j.optional(step) { $0.int($1) } }
      }
      j.field("sentSteps") { j in
        j.array { j in
          for step in effect.sentSteps { j.int(step) }
        }
      }
    }
  }
}
