import ComposableCore
import TraceKit

/// The reducer tree stored in a trace: the core's description of the root reducer, under a
/// `Recorder` node, in TraceKit's form.
///
/// ```swift
/// recorderTree(of: AppFeature()).node.children[0].kind  // "reducer" (AppFeature)
/// ```
struct RecorderTree: Sendable {
  var rootTypeName: String
  var node: ReducerTreeNode
}

func recorderTree<R: Reducer>(of reducer: R) -> RecorderTree {
  let root = reducerNode(of: reducer)
  return RecorderTree(
    rootTypeName: String(describing: R.self),
    node: ReducerTreeNode(
      kind: "Recorder", typeName: String(describing: R.self),
      children: [ReducerTreeNode(root, statePrefix: nil)]))
}

extension ReducerTreeNode {
  /// The core's node, with state paths made absolute (`folder.rows`) and action prefixes.
  ///
  /// A scoping node's action prefix is taken to be the last component of its state path: the
  /// architecture's convention names the child action case after the child state
  /// (`state.counter` / `Action.counter`). The core's node does not carry the case itself.
  init(_ node: ReducerNode, statePrefix: String?) {
    let kind: String
    switch node.kind {
    case .reduce: kind = "Reduce"
    case .scope: kind = "Scope"
    case .combine: kind = "CombineReducers"
    case .custom: kind = "reducer"
    case .ifLet, .forEach, .presentation: kind = node.kind.rawValue
    default: kind = node.kind.rawValue
    }
    var statePath = statePrefix
    var actionPrefix: String?
    if let label = node.label, [.scope, .ifLet, .forEach, .presentation].contains(node.kind) {
      let relative = label.hasPrefix("\\.") ? String(label.dropFirst(2)) : label
      statePath = statePrefix.map { "\($0).\(relative)" } ?? relative
      actionPrefix = relative.split(separator: ".").last.map(String.init)
    }
    // The parent of ifLet/forEach/presentation runs on the parent's state: its children keep
    // the prefix; the child reducer runs on the scoped state.
    let children: [ReducerTreeNode]
    switch node.kind {
    case .ifLet, .forEach, .presentation:
      children = node.children.enumerated().map { index, child in
        ReducerTreeNode(child, statePrefix: index == 0 ? statePrefix : statePath)
      }
    default:
      children = node.children.map { ReducerTreeNode($0, statePrefix: statePath) }
    }
    self.init(
      kind: kind, typeName: node.typeName,
      statePath: node.kind == .scope || node.kind == .ifLet || node.kind == .forEach
        || node.kind == .presentation ? statePath : nil,
      actionPrefix: actionPrefix, children: children)
  }
}
