extension Reduce: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .reduce, typeName: wrapped.map { String(describing: type(of: $0)) } ?? "")
  }

  package var childReducers: [any Reducer] {
    wrapped.map { [$0] } ?? []
  }
}

extension EmptyReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .empty, typeName: "")
  }

  package var childReducers: [any Reducer] { [] }
}

extension CombineReducers: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .combine, typeName: "")
  }

  package var childReducers: [any Reducer] { [reducers] }
}

extension ReducerSequence: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .sequence, typeName: "")
  }

  package var childReducers: [any Reducer] { [first, second] }
}

extension ReducerConditional: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .conditional, typeName: "")
  }

  package var childReducers: [any Reducer] {
    switch self {
    case let .first(first): [first]
    case let .second(second): [second]
    }
  }
}

extension ReducerArray: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .array, typeName: "")
  }

  package var childReducers: [any Reducer] { reducers }
}

extension Optional: ReducerNodeDescribing where Wrapped: Reducer {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .optional, typeName: "")
  }

  package var childReducers: [any Reducer] {
    map { [$0] } ?? []
  }
}

extension Scope: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    let label: String
    var stateName: String?
    if let keyPath = toChildKeyPath {
      label = ReducerLabel.text(keyPath: keyPath, caseNaming: toChildAction.naming)
      stateName = ReducerLabel.storedName(keyPath)
    } else {
      label =
        (toChildCase?.path.name ?? toChildAction.name).map(ReducerLabel.withoutKeyPathPrefix)
        ?? "case \(Child.State.self)"
    }
    return ReducerNode(
      kind: .scope, typeName: String(describing: Child.self), label: label, stateName: stateName)
  }

  package var childReducers: [any Reducer] { [child] }
}

extension IfLetReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .ifLet, typeName: String(describing: Child.self), label: childID.label.text,
      stateName: ReducerLabel.storedName(toChildState))
  }

  package var childReducers: [any Reducer] { [parent, child] }
}

extension ForEachReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .forEach, typeName: String(describing: Element.self),
      label: ReducerLabel(keyPath: toElementsState, casePath: toElementAction).text,
      stateName: ReducerLabel.storedName(toElementsState))
  }

  package var childReducers: [any Reducer] { [parent, element] }
}

extension PresentationReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(
      kind: .presentation, typeName: String(describing: Destination.self),
      label: destinationID.label.text, stateName: ReducerLabel.storedName(toPresentationState))
  }

  package var childReducers: [any Reducer] { [base, destination] }
}

extension OnChangeReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .onChange, typeName: String(describing: Value.self))
  }

  package var childReducers: [any Reducer] { [base] }
}

extension DependencyKeyWritingReducer: ReducerNodeDescribing {
  package var reducerNode: ReducerNode {
    ReducerNode(kind: .dependency, typeName: "")
  }

  package var childReducers: [any Reducer] { [base] }
}
