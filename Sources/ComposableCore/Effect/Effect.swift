/// A side effect as a value: what to run, never running by itself. The store runs it.
///
/// ```swift
/// case .loadTapped:
///   state.isLoading = true
///   return .run { send in
///     await send(.loaded(try await client.fetch()))
///   }
///   .cancellable(id: CancelID.load, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  /// The structure of the effect, for the store that runs it and for code that compares what
  /// reducers asked for without running it (typed replay). See `Effect.Node`.
  @usableFromInline package let node: Node

  @usableFromInline
  package init(node: Node) {
    self.node = node
  }

  /// The parts an effect is made of: what a reducer asked for, readable without a store.
  ///
  /// ```swift
  /// let effect = Row().reduce(into: &row, action: .stop)
  /// if case let .cancel(id, reason, _) = effect.node { print(id, reason) }
  /// // timer cancelEffect
  /// ```
  ///
  /// What a store did with it (the effects it started, how each ended) is told through
  /// `StoreInstrument`, not read back from here.
  ///
  /// A node is one word: each case whose payload is larger is kept in a box of its own
  /// (`indirect`); a merge's or a concatenation's array is already a reference and is stored
  /// as it is, so building or mapping one allocates its array and no box around it.
  @usableFromInline
  package enum Node: Sendable {
    /// Nothing to do.
    case none
    /// An action fed back into the store synchronously, after the actions already buffered
    /// (breadth-first).
    indirect case send(Action)
    /// An asynchronous operation run in its own task.
    indirect case run(Run)
    /// Children started together, running concurrently.
    case merge([Effect])
    /// Children run one after another, each starting when the previous one finished.
    case concatenate([Effect])
    /// A child whose tasks are registered under `id`; with `cancelInFlight`, the tasks already
    /// registered under `id` are cancelled first.
    indirect case cancellable(id: EffectCancelID, cancelInFlight: Bool, Effect)
    /// Cancels every running task registered under `id`. Created inside a reducer that a store
    /// runs, it was performed then (`isPerformed`), and the store only passes it by; created
    /// elsewhere, the store performs it when it reaches it.
    indirect case cancel(id: EffectCancelID, reason: EffectCancelReason, isPerformed: Bool = false)
  }

  /// A `.run` leaf: the operation, its priority, and where it was created.
  @usableFromInline
  package struct Run: Sendable {
    /// The priority of the task the store creates for it.
    @inlinable package var priority: TaskPriority? {
      get { rawPriority.map { TaskPriority(rawValue: $0) } }
      set { rawPriority = newValue?.rawValue }
    }
    /// The priority's raw value: `TaskPriority` is not a frozen type, so each copy of a
    /// `TaskPriority?` went through its value witnesses, and a run is copied at every level
    /// that maps its effect.
    @usableFromInline var rawPriority: UInt8?
    /// The operation; errors are already handled (see `Effect.run(priority:operation:catch:)`)
    /// and the dependencies in force at creation are already applied inside it.
    @usableFromInline package var operation: @Sendable (Send<Action>) async -> Void
    /// Where `Effect.run` was called, when known.
    @usableFromInline package var location: SourceLocation?

    @usableFromInline
    package init(
      priority: TaskPriority?,
      location: SourceLocation?,
      operation: @escaping @Sendable (Send<Action>) async -> Void
    ) {
      self.rawPriority = priority?.rawValue
      self.location = location
      self.operation = operation
    }

    @inlinable
    init(
      rawPriority: UInt8?,
      location: SourceLocation?,
      operation: @escaping @Sendable (Send<Action>) async -> Void
    ) {
      self.rawPriority = rawPriority
      self.location = location
      self.operation = operation
    }

    /// The raw value of a priority, never inlined: a `TaskPriority?` (not frozen) unwrapped
    /// inline is copied into a dynamically sized stack slot made in the prologue of every
    /// reducer that can return a `.run` (3 instructions on each of its actions).
    @usableFromInline @inline(never)
    static func rawValue(of priority: TaskPriority?) -> UInt8? {
      priority?.rawValue
    }

    /// The same leaf (its priority and location) running `operation`, which sends actions of
    /// another type: the run an effect's `map` makes.
    @inlinable
    package func running<T>(_ operation: @escaping @Sendable (Send<T>) async -> Void)
      -> Effect<T>.Run
    {
      Effect<T>.Run(rawPriority: rawPriority, location: location, operation: operation)
    }
  }

}

extension DependencyValues {
  /// The dependencies in force, as an effect created now captures them: started by an
  /// instrumented store's reducer, its reads are noted in the store's key log.
  @usableFromInline
  static func forEffect() -> DependencyValues {
    var captured = DependencyValues.inForce
    if captured.keyLog == nil { captured.keyLog = ReducingContext.keyLog }
    return captured
  }
}

/// Why a `.cancel` part of an effect cancels.
@usableFromInline
package enum EffectCancelReason: Hashable, Sendable {
  /// A reducer returned `Effect.cancel(id:)`.
  case cancelEffect
  /// `ifLet`, `forEach` or presentation tore a child down.
  case teardown(NavigationID.Kind)
}

extension Effect {
  /// An effect that does nothing.
  ///
  /// ```swift
  /// case .incrementTapped:
  ///   state.count += 1
  ///   return .none
  /// ```
  @inlinable
  public static var none: Self {
    Effect(node: .none)
  }

  /// An effect that feeds an action back into the store right away, after the actions already
  /// waiting (breadth-first), in the same batch.
  ///
  /// ```swift
  /// return .send(.refresh)
  /// ```
  @inlinable
  public static func send(_ action: Action) -> Self {
    Effect(node: .send(action))
  }

  /// An effect that runs an asynchronous operation in its own task and may send actions back.
  ///
  /// Errors thrown by `operation` go to `handler`; without one, an error that is not a
  /// cancellation is reported as a runtime issue naming where the effect was created. The
  /// dependencies in force when the effect is created are in force while it runs.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await tick in clock.timer(interval: .seconds(1)) { await send(.tick) }
  /// } catch: { error, send in
  ///   await send(.failed(error.localizedDescription))
  /// }
  /// ```
  @inlinable
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    run(
      rawPriority: Run.rawValue(of: priority), operation: operation, catch: handler,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// An effect that runs an asynchronous operation in its own task, at the priority the task
  /// inherits: `run(priority:operation:catch:)` without a priority, which a call that gives none
  /// resolves to. A `TaskPriority?` (not a frozen type) made for the default `nil` and unwrapped
  /// went through its value witnesses, about 170 instructions on every `.run` a reducer returns.
  ///
  /// ```swift
  /// return .run { send in
  ///   await send(.loaded(try await client.fetch()))
  /// }
  /// ```
  @inlinable
  public static func run(
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    run(
      rawPriority: nil, operation: operation, catch: handler,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The effect both `run` forms make: the operation, with the dependencies in force now and
  /// its errors handled, at the priority given by its raw value.
  @inlinable
  static func run(
    rawPriority: UInt8?,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)?,
    location: SourceLocation
  ) -> Self {
    let dependencies = DependencyValues.forEffect()
    return Effect(
      node: .run(
        Run(rawPriority: rawPriority, location: location) { send in
          await DependencyValues.$current.withValue(dependencies) {
            do {
              try await operation(send)
            } catch is CancellationError {
              // As upstream: a cancelled operation (the effect's, or one run by
              // `withTaskCancellation` inside it) is not an error to report.
              return
            } catch {
              if let handler {
                await handler(error, send)
              } else {
                reportIssue(
                  Effect.unhandledErrorMessage(error, location: location),
                  location: location
                )
              }
            }
          }
        }
      )
    )
  }

  @usableFromInline
  static func unhandledErrorMessage(_ error: any Error, location: SourceLocation) -> String {
    """
    An "Effect.run" returned from "\(location)" threw an unhandled error:

        \(String(describing: error))

    All errors that are not cancellations must be handled, with the "catch" parameter of \
    "Effect.run" or with a "do" block in its operation.
    """
  }

  /// An effect that runs the given effects at the same time.
  ///
  /// ```swift
  /// return .merge(.run { _ in await analytics.track("open") }, .send(.load))
  /// ```
  @inlinable
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// Two effects at the same time: the form reducer composition uses on every action, which
  /// allocates nothing when one of them is `.none` (the variadic form allocates its array).
  @inlinable
  package static func merging(_ first: Self, _ second: Self) -> Self {
    if case .none = second.node { return first }
    if case .none = first.node { return second }
    return merge([first, second])
  }

  /// An effect that runs the given effects at the same time.
  @inlinable
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var children: [Effect] = []
    // At the size the effects give (a variadic call's count): grown by appending, a
    // three-part merge allocated its array twice.
    children.reserveCapacity(effects.underestimatedCount)
    for effect in effects {
      switch effect.node {
      case .none:
        continue
      case let .merge(grandchildren):
        children.append(contentsOf: grandchildren)
      default:
        children.append(effect)
      }
    }
    switch children.count {
    case 0: return .none
    case 1: return children[0]
    default: return Effect(node: .merge(children))
    }
  }

  /// An effect that runs the given effects one after another.
  ///
  /// ```swift
  /// return .concatenate(.run { _ in await save() }, .send(.saved))
  /// ```
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    concatenating(effects)
  }

  /// An effect that runs the given effects one after another.
  @inlinable
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    concatenating(Array(effects))
  }

  /// Two effects one after the other: the form `debounce` uses, which allocates only the
  /// concatenation's array of two (the variadic form allocates its array, and filtering out
  /// the `.none`s allocated another and grew it).
  @inlinable
  package static func concatenating(_ first: Self, _ second: Self) -> Self {
    if case .none = second.node { return first }
    if case .none = first.node { return second }
    return Effect(node: .concatenate([first, second]))
  }

  /// The effects one after another, without the `.none`s: the array itself when it has
  /// none (the common case), a filtered copy otherwise.
  @inlinable
  static func concatenating(_ effects: [Self]) -> Self {
    var noneCount = 0
    for effect in effects {
      if case .none = effect.node { noneCount += 1 }
    }
    var children = effects
    if noneCount > 0 {
      children = []
      children.reserveCapacity(effects.count - noneCount)
      for effect in effects {
        if case .none = effect.node { continue }
        children.append(effect)
      }
    }
    switch children.count {
    case 0: return .none
    case 1: return children[0]
    default: return Effect(node: .concatenate(children))
    }
  }

  /// This effect and another, at the same time.
  @inlinable
  public func merge(with other: Self) -> Self {
    .merge(self, other)
  }

  /// This effect, then another.
  @inlinable
  public func concatenate(with other: Self) -> Self {
    .concatenate(self, other)
  }

  /// The effect, with every action it sends transformed.
  ///
  /// ```swift
  /// childEffect.map(Action.child)
  /// ```
  @inlinable
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch node {
    case .none:
      return .none
    case let .send(action):
      return Effect<T>(node: .send(transform(action)))
    case let .run(run):
      let operation = run.operation
      return Effect<T>(
        node: .run(
          run.running { send in
            await operation(Send { action in send(transform(action)) })
          }
        )
      )
    case let .merge(children):
      return Effect<T>(node: .merge(Self.mapping(children) { $0.map(transform) }))
    case let .concatenate(children):
      return Effect<T>(node: .concatenate(Self.mapping(children) { $0.map(transform) }))
    case let .cancellable(id, cancelInFlight, child):
      return Effect<T>(
        node: .cancellable(id: id, cancelInFlight: cancelInFlight, child.map(transform))
      )
    case let .cancel(id, reason, isPerformed):
      return Effect<T>(node: .cancel(id: id, reason: reason, isPerformed: isPerformed))
    }
  }
}

extension Effect {
  /// The children of a merge or a concatenation, each mapped: two (a debounce's wait and its
  /// effect, two merged effects), the common case, are put in an array literal, made at its
  /// size in one step; `Array.map` reserved a buffer and then appended (about 300
  /// instructions more for each tree a `Scope` maps).
  @inlinable
  static func mapping<T>(
    _ children: [Effect], _ transform: (Effect) -> Effect<T>
  ) -> [Effect<T>] {
    if children.count == 2 {
      return [transform(children[0]), transform(children[1])]
    }
    return children.map(transform)
  }
}
