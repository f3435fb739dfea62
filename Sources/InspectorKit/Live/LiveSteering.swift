/// A source the interactive view can steer: a running app (`inspector open --attach`). Each
/// call returns the line the status bar shows (what was done, or why not).
///
/// ```swift
/// steering.jump(to: 12)   // "step 58: jumped to step 12; paused at step 12 (jumped; …)"
/// ```
package protocol LiveSteering: AnyObject {
  func pause() -> String
  func jump(to step: Int) -> String
  func resume() -> String
  func continueFromHere() -> String
}
