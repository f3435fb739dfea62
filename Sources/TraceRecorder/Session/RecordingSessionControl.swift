/// What `Recorder` needs from a session without knowing its types. Callable from any thread:
/// a recorder may be dropped anywhere.
protocol RecordingSessionControl: AnyObject, Sendable {
  /// Hands the end of the recording to the writer; returns at once.
  func finish()
  /// Waits until the writer closed the trace and its threads are gone.
  func waitUntilFinished() async
  /// Blocks the calling thread until the writer closed the trace and its threads are gone.
  func waitUntilFinishedBlocking()
  /// Waits until the writer's threads and the live server's are gone (after `finish()`).
  func joinWriter()
  /// Whether the writer's thread was joined, or never started (tests).
  var isWriterJoined: Bool { get }
  var failure: RecorderError? { get }
  var capturedSteps: Int { get }
  var queuedEvents: Int { get }
  var queueHighWater: Int { get }
  /// The live part, when the recording serves inspectors.
  var live: LiveSession? { get }
}
