import TraceKit

extension TraceChange {
  /// The change, moved under an object field.
  func prefixed(by key: String) -> TraceChange {
    prefixed(by: [.key(key)])
  }

  func prefixed(by components: [TracePath.Component]) -> TraceChange {
    switch self {
    case .set(let path, let value): .set(TracePath(components + path.components), value)
    case .remove(let path): .remove(TracePath(components + path.components))
    case .insert(let path, let value): .insert(TracePath(components + path.components), value)
    }
  }
}

extension TracePath {
  /// The path, moved under an object field or other components.
  func prefixed(by components: [TracePath.Component]) -> TracePath {
    TracePath(components + self.components)
  }
}

extension TraceDiff {
  /// A field's changes and changed paths, diffed whole under the field's path.
  static func whole(at path: [TracePath.Component], from old: TraceValue, to new: TraceValue)
    -> (changes: [TraceChange], paths: [TracePath])
  {
    TraceDiff.changesAndPaths(from: old, to: new, under: path)
  }
}
