import ComposableCore
import TraceKit

/// The reducer tree stored in a trace: the core's description of the root reducer, under a
/// `Recorder` node, in TraceKit's form.
///
/// ```swift
/// recorderTree(of: store, baseTypeName: "AppFeature").node.children[0].kind
/// // "reducer" (AppFeature)
/// ```
struct RecorderTree: Sendable {
  var rootTypeName: String
  var node: ReducerTreeNode
}

/// The tree of the store a recorder was given: the root reducer under a `Recorder` node (the
/// recorder's own node when it wraps the root, named after the reducer it wraps).
func recorderTree(of store: InstrumentedStore, baseTypeName: String) -> RecorderTree {
  let root = store.tree
  if root.kind == .instrument {
    return RecorderTree(
      rootTypeName: baseTypeName,
      node: ReducerTreeNode(
        kind: "Recorder", typeName: baseTypeName,
        children: root.children.flatMap { ReducerTreeNode.nodes($0, statePrefix: nil) }))
  }
  return RecorderTree(
    rootTypeName: store.rootTypeName,
    node: ReducerTreeNode(
      kind: "Recorder", typeName: store.rootTypeName,
      children: ReducerTreeNode.nodes(root, statePrefix: nil)))
}

extension ReducerTreeNode {
  /// The core's node, with state paths made absolute (`folder.rows`) and action prefixes.
  ///
  /// A scoping node's action prefix is taken to be the last component of its state path: the
  /// architecture's convention names the child action case after the child state
  /// (`state.counter` / `Action.counter`). The core's node does not carry the case itself.
  ///
  /// `parent.ifLet(…) { Child() }` is one reducer that runs `Child` and then `parent`; the
  /// tree shows it the way it is read in source — `parent`'s nodes, then an `ifLet` node
  /// holding only `Child` — so that each node's step count is the steps that node handled.
  static func nodes(_ node: ReducerNode, statePrefix: String?) -> [ReducerTreeNode] {
    var statePath = statePrefix
    var actionPrefix: String?
    if let label = node.label, [.scope, .ifLet, .forEach, .presentation].contains(node.kind) {
      let relative = label.hasPrefix("\\.") ? String(label.dropFirst(2)) : label
      statePath = statePrefix.map { "\($0).\(relative)" } ?? relative
      actionPrefix = relative.split(separator: ".").last.map(String.init)
    }
    switch node.kind {
    case .ifLet, .forEach, .presentation:
      // children[0] is the parent, on the parent's state; the rest run on the scoped state.
      let parent = node.children.prefix(1).flatMap { nodes($0, statePrefix: statePrefix) }
      let child = node.children.dropFirst().flatMap { nodes($0, statePrefix: statePath) }
      return parent + [
        ReducerTreeNode(
          kind: node.kind.rawValue, typeName: node.typeName, statePath: statePath,
          actionPrefix: actionPrefix, children: child)
      ]
    default:
      let kind: String
      switch node.kind {
      case .reduce: kind = "Reduce"
      case .scope: kind = "Scope"
      case .combine: kind = "CombineReducers"
      case .custom: kind = "reducer"
      case .instrument: kind = "Recorder"
      default: kind = node.kind.rawValue
      }
      return [
        ReducerTreeNode(
          kind: kind, typeName: node.typeName,
          statePath: node.kind == .scope ? statePath : nil,
          actionPrefix: actionPrefix,
          children: node.children.flatMap { nodes($0, statePrefix: statePath) })
      ]
    }
  }
}
