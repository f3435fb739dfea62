extension Reduce: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .reduce, typeName: wrappedTypeName ?? "")
  }
}

extension EmptyReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .empty, typeName: "")
  }
}

extension CombineReducers: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .combine, typeName: "", children: [ComposableCore.reducerNode(of: reducers)])
  }
}

extension ReducerSequence: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .sequence, typeName: "", children: flattened)
  }

  /// The builder nests sequences pairwise; the tree shows one list.
  var flattened: [ReducerNode] {
    var nodes: [ReducerNode] = []
    if let sequence = first as? any FlattenableSequence {
      nodes += sequence.flattenedNodes
    } else {
      nodes.append(ComposableCore.reducerNode(of: first))
    }
    if let sequence = second as? any FlattenableSequence {
      nodes += sequence.flattenedNodes
    } else {
      nodes.append(ComposableCore.reducerNode(of: second))
    }
    return nodes
  }
}

protocol FlattenableSequence {
  var flattenedNodes: [ReducerNode] { get }
}

extension ReducerSequence: FlattenableSequence {
  var flattenedNodes: [ReducerNode] { flattened }
}

extension ReducerConditional: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    switch self {
    case let .first(first):
      ReducerNode(
        kind: .conditional, typeName: "", children: [ComposableCore.reducerNode(of: first)])
    case let .second(second):
      ReducerNode(
        kind: .conditional, typeName: "", children: [ComposableCore.reducerNode(of: second)])
    }
  }
}

extension ReducerArray: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .array, typeName: "",
      children: reducers.map { ComposableCore.reducerNode(of: $0) })
  }
}

extension Optional: ReducerNodeDescribing where Wrapped: Reducer {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .optional, typeName: "", children: map { [ComposableCore.reducerNode(of: $0)] } ?? [])
  }
}

extension Scope: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    let label: String
    switch toChildState {
    case let .keyPath(keyPath): label = keyPathLabel(keyPath, name: name)
    case .casePath: label = name ?? "case \(Child.State.self)"
    }
    return ReducerNode(
      kind: .scope,
      typeName: String(describing: Child.self),
      label: label,
      children: [ComposableCore.reducerNode(of: child)]
    )
  }
}

extension IfLetReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .ifLet,
      typeName: String(describing: Child.self),
      label: keyPathLabel(toChildState, name: name),
      children: [ComposableCore.reducerNode(of: parent), ComposableCore.reducerNode(of: child)]
    )
  }
}

extension ForEachReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .forEach,
      typeName: String(describing: Element.self),
      label: keyPathLabel(toElementsState, name: name),
      children: [ComposableCore.reducerNode(of: parent), ComposableCore.reducerNode(of: element)]
    )
  }
}

extension PresentationReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .presentation,
      typeName: String(describing: Destination.self),
      label: keyPathLabel(toPresentationState, name: name),
      children: [
        ComposableCore.reducerNode(of: base), ComposableCore.reducerNode(of: destination),
      ]
    )
  }
}

extension OnChangeReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .onChange, typeName: String(describing: Value.self),
      children: [ComposableCore.reducerNode(of: base)])
  }
}

extension DependencyKeyWritingReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .dependency, typeName: "", children: [ComposableCore.reducerNode(of: base)])
  }
}
