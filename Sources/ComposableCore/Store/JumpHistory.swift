/// Where an inspector's jumps left a store: the present it left (the last step before its
/// first jump), the recorded step it shows, and for each jump the step of the original
/// history its state descends from. The store keeps one; typed replay rebuilds it from the
/// trace's jump and continue steps, so both agree on what a continue abandons.
///
/// ```swift
/// var history = JumpHistory()
/// history.jumped(at: 41, to: 12)   // the present was step 40
/// history.abandonedFuture          // 13...40: the steps whose effects a continue cancels
/// ```
package struct JumpHistory: Sendable {
  /// The last step before the first jump; nil when the store is in its present.
  package private(set) var presentStep: Int?
  /// The recorded step whose state the store shows since its last jump.
  package private(set) var jumpedTo: Int?
  /// For each jump (its own step number), the step of the original history its state came
  /// from: steps after a jump descend from that step (see `base(of:)`).
  private var jumps: [(jumpStep: Int, base: Int)] = []

  package init() {}

  /// Whether a jump to `recordedStep` returns to the present (the store ends the jump, as
  /// `resume` does, but keeps holding).
  package func isReturn(to recordedStep: Int) -> Bool {
    presentStep == recordedStep
  }

  /// The jump numbered `step` showed the state recorded after `recordedStep`.
  package mutating func jumped(at step: Int, to recordedStep: Int) {
    if presentStep == nil { presentStep = step - 1 }
    let base = base(of: recordedStep)
    jumpedTo = recordedStep
    jumps.append((step, base))
  }

  /// The store is in its present again (or a new one, after a continue).
  package mutating func end() {
    self = JumpHistory()
  }

  /// The steps of the original history that a continue from the jumped state leaves behind:
  /// what their effects still run is cancelled. Nil when it leaves nothing.
  package var abandonedFuture: ClosedRange<Int>? {
    guard let presentStep, let jumpedTo else { return nil }
    let base = base(of: jumpedTo)
    return base < presentStep ? (base + 1)...presentStep : nil
  }

  /// The step of the original history (at or before the present) that the state of `step`
  /// descends from: itself, unless it was made during a jump.
  private func base(of step: Int) -> Int {
    guard let presentStep, step > presentStep else { return step }
    return jumps.last { $0.jumpStep <= step }?.base ?? step
  }
}
