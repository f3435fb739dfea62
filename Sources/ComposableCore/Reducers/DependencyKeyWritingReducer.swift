extension Reducer {
  /// Runs the reducer (and the effects it creates) with one dependency overridden.
  ///
  /// ```swift
  /// Child()
  ///   .dependency(\.uuid, .incrementing)
  /// ```
  @inlinable
  public consuming func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> DependencyKeyWritingReducer<Self> {
    transformDependency(keyPath) { $0 = value }
  }

  /// Runs the reducer (and the effects it creates) with one dependency changed from the value
  /// in force, e.g. to wrap it.
  ///
  /// ```swift
  /// Feature()
  ///   .transformDependency(\.uuid) { uuid in
  ///     let base = uuid
  ///     uuid = UUIDGenerator { let id = base(); log(id); return id }
  ///   }
  /// ```
  @inlinable
  public consuming func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping (inout Value) -> Void
  ) -> DependencyKeyWritingReducer<Self> {
    DependencyKeyWritingReducer(base: self) { values in
      transform(&values[keyPath: keyPath])
    }
  }
}

/// The reducer `Reducer.dependency(_:_:)` returns.
public struct DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: (inout DependencyValues) -> Void

  @inlinable
  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.inForce
    update(&values)
    return DependencyValues.$current.withValue(values) {
      base.reduce(into: &state, action: action)
    }
  }

  /// Adds another override (overrides stack instead of nesting reducers).
  public consuming func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> Self {
    let update = self.update
    return DependencyKeyWritingReducer(base: base) { values in
      update(&values)
      values[keyPath: keyPath] = value
    }
  }
}
