/// One node of a reducer's static composition: the "reducer tree" the Recorder stores.
///
/// ```swift
/// reducerNode(of: AppFeature()).render()
/// // AppFeature
/// //   sequence
/// //     scope counter (Counter)
/// //     …
/// ```
package struct ReducerNode: Sendable, Hashable {
  /// What kind of reducer the node is.
  package enum Kind: String, Sendable, Hashable {
    case reduce
    case empty
    case scope
    case ifLet
    case forEach
    case presentation
    case stack
    case combine
    case sequence
    case optional
    case conditional
    case array
    case onChange
    case dependency
    /// A reducer type written by a user (its `body` is its only child), or one that
    /// implements `reduce(into:action:)` (no children).
    case custom
    /// A reducer that brings the store an instrument (the Recorder), over the reducer it wraps.
    case instrument
  }

  package var kind: Kind
  /// The reducer's type name (for `custom`) or the wrapped type (for built-ins, when known).
  package var typeName: String
  /// The child's name (`rows`) for scope, ifLet, forEach, presentation and stack (see
  /// `ReducerLabel`).
  package var label: String?
  /// The child state's key path as its property names (`rows`, `folder.rows`) when Swift can
  /// name it: where the child's state is, which its label does not say when a case path names
  /// the child (`.forEach(\.todos, action: \.todo)` is labelled `todo`).
  package var stateName: String?
  package var children: [ReducerNode]

  package init(
    kind: Kind, typeName: String, label: String? = nil, stateName: String? = nil,
    children: [ReducerNode] = []
  ) {
    self.kind = kind
    self.typeName = typeName
    self.label = label
    self.stateName = stateName
    self.children = children
  }

  /// The tree as indented text, one node a line.
  package func render() -> String {
    var lines: [String] = []
    render(into: &lines, depth: 0)
    return lines.joined(separator: "\n")
  }

  private func render(into lines: inout [String], depth: Int) {
    var line = String(repeating: "  ", count: depth)
    switch kind {
    case .custom:
      line += typeName
    default:
      line += kind.rawValue
      if let label { line += " \(label)" }
      if !typeName.isEmpty { line += " (\(typeName))" }
    }
    lines.append(line)
    for child in children {
      child.render(into: &lines, depth: depth + 1)
    }
  }
}

/// Adopted by the built-in reducers (and the Recorder's), which know their own structure.
package protocol ReducerNodeDescribing {
  /// The node itself: kind, type and label, without children.
  var reducerNode: ReducerNode { get }
  /// The reducers it runs, in the order the tree shows them.
  var childReducers: [any Reducer] { get }
}

/// The reducers a reducer is made of: a built-in's children, or a user type's `body`.
///
/// A user type met again inside its own body (a recursive feature: `.forEach(\.rows) { Self() }`)
/// has no children the second time: its composition is already on the path.
package func childReducers<R: Reducer>(of reducer: R, path: inout Set<ObjectIdentifier>)
  -> [any Reducer]
{
  if let describing = reducer as? any ReducerNodeDescribing {
    return describing.childReducers
  }
  guard R.Body.self != Never.self, path.insert(ObjectIdentifier(R.self)).inserted,
    let body = reducer.body as? any Reducer
  else { return [] }
  return [body]
}

/// The static composition of a reducer, walking `body` of user reducer types.
package func reducerNode<R: Reducer>(of reducer: R) -> ReducerNode {
  return reducerNode(of: reducer, path: [])

  func reducerNode<Child: Reducer>(of reducer: Child, path: Set<ObjectIdentifier>)
    -> ReducerNode
  {
    var node: ReducerNode
    if let describing = reducer as? any ReducerNodeDescribing {
      node = describing.reducerNode
    } else {
      node = ReducerNode(kind: .custom, typeName: String(describing: Child.self))
    }
    var path = path
    let isRecursion =
      !(reducer is any ReducerNodeDescribing) && Child.Body.self != Never.self
      && path.contains(ObjectIdentifier(Child.self))
    if isRecursion {
      node.typeName += " (recursive)"
      return node
    }
    for child in childReducers(of: reducer, path: &path) {
      let childNode = reducerNode(of: child, path: path)
      // The builder nests sequences pairwise; the tree shows one list.
      if node.kind == .sequence, childNode.kind == .sequence {
        node.children += childNode.children
      } else {
        node.children.append(childNode)
      }
    }
    return node
  }
}
