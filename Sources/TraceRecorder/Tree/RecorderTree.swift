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
  /// A scoping node's state path is its key path's property names when Swift can name them,
  /// else its label; its action prefix is the last component of its label: the case's name
  /// when a case path tells it (`.forEach(\.todos, action: \.todo)`: state `todos`, actions
  /// `todo`), else the architecture's convention names the child action case after the child
  /// state (`state.counter` / `Action.counter`).
  ///
  /// `parent.ifLet(…) { Child() }` is one reducer that runs `Child` and then `parent`; the
  /// tree shows it the way it is read in source — `parent`'s nodes, then an `ifLet` node
  /// holding only `Child` — so that each node's step count is the steps that node handled.
  static func nodes(_ node: ReducerNode, statePrefix: String?) -> [ReducerTreeNode] {
    var statePath = statePrefix
    var actionPrefix: String?
    let scoping: [ReducerNode.Kind] = [.scope, .ifLet, .forEach, .presentation, .stack]
    if let label = node.label, scoping.contains(node.kind) {
      let named = label.hasPrefix("\\.") ? String(label.dropFirst(2)) : label
      let relative = node.stateName ?? named
      statePath = statePrefix.map { "\($0).\(relative)" } ?? relative
      actionPrefix = named.split(separator: ".").last.map(String.init)
    }
    switch node.kind {
    case .ifLet, .forEach, .presentation, .stack:
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
