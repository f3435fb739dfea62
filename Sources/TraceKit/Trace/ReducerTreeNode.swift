/// One node of the static reducer composition, stored once per trace as JSON.
///
/// ```swift
/// let tree = ReducerTreeNode(kind: "Scope", typeName: "CounterFeature", statePath: "counter",
///                            actionPrefix: "counter")
/// ```
public struct ReducerTreeNode: Sendable, Hashable, Codable {
  /// "Reduce", "Scope", "ifLet", "forEach", "presentation", "CombineReducers", "Recorder" or
  /// "reducer".
  public var kind: String
  /// e.g. "FolderTabFeature".
  public var typeName: String
  /// The `TracePath` description of the state this node sees, e.g. "folder".
  public var statePath: String?
  /// Steps whose action path starts with this prefix were handled by this node.
  public var actionPrefix: String?
  public var children: [ReducerTreeNode]

  public init(
    kind: String, typeName: String, statePath: String? = nil, actionPrefix: String? = nil,
    children: [ReducerTreeNode] = []
  ) {
    self.kind = kind
    self.typeName = typeName
    self.statePath = statePath
    self.actionPrefix = actionPrefix
    self.children = children
  }
}
