/// What `rewind-demo run` was asked for: where the session is recorded and how the scripted
/// user behaves.
///
/// ```swift
/// // rewind-demo run counter --live --steps 5 --seed 3 --pause 0
/// LiveOptions(out: nil, live: true, duration: nil, steps: 5, seed: 3,
///             longestPause: .zero, force: false)
/// ```
struct LiveOptions: Equatable, Sendable {
  /// The trace file, if one is written.
  var out: String?
  /// Whether inspectors can attach (`Recorder.Live`).
  var live: Bool
  var duration: Duration?
  /// User actions after the opening ones; nil: without end. After them the session idles
  /// until it is stopped.
  var steps: Int?
  var seed: UInt64?
  /// The longest pause between user actions (nil: the scenario's).
  var longestPause: Duration?
  var force: Bool
}
