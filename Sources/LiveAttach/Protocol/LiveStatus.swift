/// Where a live store is, as the app tells an inspector: its last step, whether it is paused,
/// where it jumped, how many actions it holds.
///
/// ```json
/// {"lastStep":40,"paused":true,"jumpedTo":12,"presentStep":39,"held":2}
/// ```
package struct LiveStatus: Sendable, Hashable {
  package var lastStep: Int
  package var isPaused: Bool
  /// The recorded step whose state the store shows (nil: its own present).
  package var jumpedTo: Int?
  /// The step `resume` returns to after a jump.
  package var presentStep: Int?
  package var heldActions: Int

  package init(
    lastStep: Int, isPaused: Bool, jumpedTo: Int? = nil, presentStep: Int? = nil,
    heldActions: Int = 0
  ) {
    self.lastStep = lastStep
    self.isPaused = isPaused
    self.jumpedTo = jumpedTo
    self.presentStep = presentStep
    self.heldActions = heldActions
  }

  /// `running`, `paused`, or `paused at step 12 (jumped; resume returns to step 39)`, with the
  /// held actions when there are any.
  package var text: String {
    var text = isPaused ? "paused" : "running"
    if let jumpedTo {
      text += " at step \(jumpedTo) (jumped"
      if let presentStep { text += "; resume returns to step \(presentStep)" }
      text += ")"
    }
    if heldActions > 0 {
      text += ", \(heldActions) held action\(heldActions == 1 ? "" : "s")"
    }
    return text
  }

  var object: LiveObject {
    var object = LiveObject(type: "status")
    object.set("lastStep", lastStep)
    object.set("paused", isPaused)
    object.set("jumpedTo", jumpedTo)
    object.set("presentStep", presentStep)
    object.set("held", heldActions)
    return object
  }

  init(fields: LiveFields) throws(LiveProtocolError) {
    lastStep = try fields.int("lastStep")
    isPaused = try fields.bool("paused")
    jumpedTo = try fields.optionalInt("jumpedTo")
    presentStep = try fields.optionalInt("presentStep")
    heldActions = try fields.int("held")
  }
}
