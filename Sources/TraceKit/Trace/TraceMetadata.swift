/// What a trace says about the program that wrote it.
///
/// ```swift
/// let metadata = TraceMetadata(rootReducer: "AppFeature", stateType: "AppFeature.State",
///                              actionType: "AppFeature.Action", extra: ["scenario": "login"])
/// print(metadata.keyframeInterval)  // 256
/// ```
public struct TraceMetadata: Sendable, Hashable {
  public var rootReducer: String
  public var stateType: String
  public var actionType: String
  /// A full state snapshot is stored at every step that is a multiple of this.
  public var keyframeInterval: Int
  /// Free-form pairs, e.g. "scenario", "seed", "app".
  public var extra: [String: String]

  public init(
    rootReducer: String, stateType: String, actionType: String, keyframeInterval: Int = 256,
    extra: [String: String] = [:]
  ) {
    self.rootReducer = rootReducer
    self.stateType = stateType
    self.actionType = actionType
    self.keyframeInterval = keyframeInterval
    self.extra = extra
  }
}
