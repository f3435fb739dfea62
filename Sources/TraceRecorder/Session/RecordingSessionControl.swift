/// What `Recorder` needs from a session without knowing its types.
protocol RecordingSessionControl: AnyObject, Sendable {
  func finish()
  var failure: RecorderError? { get }
  var capturedSteps: Int { get }
  var queuedEvents: Int { get }
}
