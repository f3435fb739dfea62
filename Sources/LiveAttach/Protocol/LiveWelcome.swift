/// What an app says about itself when an inspector says hello: enough for `inspector ps`.
///
/// ```json
/// {"type":"welcome","version":1,"pid":4242,"name":"rewind-demo","rootReducer":"Counter",
///  "stateType":"Counter.State","actionType":"Counter.Action","since":1780000000.5,
///  "file":null,"history":{"first":0,"last":57},"canJump":true,"canSend":true,
///  "status":{…}}
/// ```
package struct LiveWelcome: Sendable, Hashable {
  package var version: Int
  package var pid: Int
  /// The name the app listens under (`Recorder.Live.name`, by default the process's name).
  package var name: String
  package var rootReducer: String
  package var stateType: String
  package var actionType: String
  /// When the recording started (seconds since 1970).
  package var since: Double
  /// The trace file the app also writes, if any.
  package var file: String?
  /// The first and last step held in memory.
  package var firstStep: Int
  package var lastStep: Int
  /// Whether a jump can restore a state (the state type is `Decodable` and not redacted).
  package var canJump: Bool
  /// Whether an action can be sent (the action type is `Decodable`).
  package var canSend: Bool
  package var status: LiveStatus

  package init(
    version: Int = LiveProtocol.version, pid: Int, name: String, rootReducer: String,
    stateType: String, actionType: String, since: Double, file: String?, firstStep: Int,
    lastStep: Int, canJump: Bool, canSend: Bool, status: LiveStatus
  ) {
    self.version = version
    self.pid = pid
    self.name = name
    self.rootReducer = rootReducer
    self.stateType = stateType
    self.actionType = actionType
    self.since = since
    self.file = file
    self.firstStep = firstStep
    self.lastStep = lastStep
    self.canJump = canJump
    self.canSend = canSend
    self.status = status
  }

  var object: LiveObject {
    var object = LiveObject(type: "welcome")
    object.set("version", version)
    object.set("pid", pid)
    object.set("name", name)
    object.set("rootReducer", rootReducer)
    object.set("stateType", stateType)
    object.set("actionType", actionType)
    object.set("since", .double(since))
    object.set("file", file)
    var history = LiveObject(type: "history")
    history.set("first", firstStep)
    history.set("last", lastStep)
    object.set("history", history.value)
    object.set("canJump", canJump)
    object.set("canSend", canSend)
    object.set("status", status.object.value)
    return object
  }

  init(fields: LiveFields) throws(LiveProtocolError) {
    version = try fields.int("version")
    pid = try fields.int("pid", in: 1...Int(Int32.max))
    name = try fields.string("name")
    rootReducer = try fields.string("rootReducer")
    stateType = try fields.string("stateType")
    actionType = try fields.string("actionType")
    since = try fields.double("since")
    file = try fields.optionalString("file")
    let history = try LiveFields(try fields.required("history"))
    firstStep = try history.int("first")
    lastStep = try history.int("last")
    canJump = try fields.bool("canJump")
    canSend = try fields.bool("canSend")
    status = try LiveStatus(fields: try LiveFields(try fields.required("status")))
  }
}
