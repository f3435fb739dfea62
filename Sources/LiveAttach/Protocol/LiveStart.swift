import TraceKit

/// The beginning of a recording, sent first to a watching inspector: what a trace file's
/// header holds (metadata, the reducer tree) and step 0, the initial state.
///
/// ```json
/// {"type":"start","rootReducer":"Counter","stateType":"…","actionType":"…",
///  "keyframeInterval":256,"extra":{"app":"rewind-demo"},"wallTime":1780000000.5,
///  "initialState":{"count":0},"tree":{…}}
/// ```
package struct LiveStart: Sendable {
  package var metadata: TraceMetadata
  /// Step 0's wall time (seconds since 1970).
  package var wallTime: Double
  package var initialState: TraceValue
  package var tree: ReducerTreeNode

  package init(
    metadata: TraceMetadata, wallTime: Double, initialState: TraceValue, tree: ReducerTreeNode
  ) {
    self.metadata = metadata
    self.wallTime = wallTime
    self.initialState = initialState
    self.tree = tree
  }

  var object: LiveObject {
    var object = LiveObject(type: "start")
    object.set("rootReducer", metadata.rootReducer)
    object.set("stateType", metadata.stateType)
    object.set("actionType", metadata.actionType)
    object.set("keyframeInterval", metadata.keyframeInterval)
    object.set(
      "extra",
      .object(
        metadata.extra.sorted { $0.key < $1.key }.map { TraceField($0.key, .string($0.value)) }))
    object.set("wallTime", .double(wallTime))
    object.set("initialState", initialState)
    object.set("tree", (try? TraceValueEncoder().encode(tree)) ?? .null)
    return object
  }

  init(fields: LiveFields) throws(LiveProtocolError) {
    var extra: [String: String] = [:]
    guard case .object(let pairs)? = fields.value("extra") else {
      throw .malformed("'extra' is not an object")
    }
    for pair in pairs {
      guard case .string(let text) = pair.value else {
        throw .malformed("'extra' holds a value that is not a string")
      }
      extra[pair.key] = text
    }
    metadata = TraceMetadata(
      rootReducer: try fields.string("rootReducer"), stateType: try fields.string("stateType"),
      actionType: try fields.string("actionType"),
      keyframeInterval: try fields.int("keyframeInterval", in: 1...Int(Int32.max)),
      extra: extra)
    wallTime = try fields.double("wallTime")
    initialState = try fields.required("initialState")
    do {
      tree = try TraceValueDecoder().decode(ReducerTreeNode.self, from: fields.required("tree"))
    } catch let error as LiveProtocolError {
      throw error
    } catch {
      throw .malformed("'tree' is not a reducer tree")
    }
  }
}
