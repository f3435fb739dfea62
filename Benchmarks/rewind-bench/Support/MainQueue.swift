import Foundation

/// The main actor's queue, run by hand: the bench's process has a synchronous `main`, so the
/// tasks a store starts (`Task { @MainActor in … }`, one for each `.run` and concatenation)
/// only run when something runs the main queue. A sample's store ends with its effects
/// cancelled, and their tasks let go of what they hold (the effect trees and whatever the
/// operations captured) once they run and see it; never run, every sample's tasks stayed
/// queued, with all they held, until the process ended.
///
/// ```swift
/// _ = SendWorkload.app.bare(2_000)   // the store is gone; its tasks are queued
/// MainQueue.drain()                   // they ran: what they held is freed
/// ```
@MainActor
enum MainQueue {
  /// Runs the main run loop until every job queued on the main actor before the call has run,
  /// and the jobs those queued in turn, for `rounds` rounds (a cancelled operation that left
  /// the main actor comes back to it for its effect's bookkeeping).
  static func drain(rounds: Int = 3) {
    for _ in 0..<rounds {
      let marker = Marker()
      Task { @MainActor in marker.isReached = true }
      while !marker.isReached {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
      }
    }
  }

  @MainActor
  private final class Marker {
    var isReached = false
  }
}
