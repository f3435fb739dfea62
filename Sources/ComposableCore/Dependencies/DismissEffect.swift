/// Dismisses the feature whose effect calls it: a presented destination (`ifLet` on
/// `PresentationState`) or an element of a navigation stack.
///
/// ```swift
/// struct Detail: Reducer {
///   @Dependency(\.dismiss) var dismiss
///   …
///   case .closeTapped:
///     return .run { _ in await dismiss() }   // the parent receives .detail(.dismiss)
/// }
/// ```
///
/// Calling it sends the parent's dismissal action — `.dismiss` of the destination's
/// `PresentationAction`, `.popFrom(id:)` of the stack — from the calling effect; the parent
/// handles it as if the user had sent it, and the child's effects (the caller's too) are
/// cancelled when its state goes away. Outside a presented feature it reports an issue and does
/// nothing; `@Dependency(\.isPresented)` tells which case applies.
public struct DismissEffect: Sendable {
  /// Whether the reducer that reads it runs as a destination or a stack element.
  @usableFromInline let isPresented: Bool

  @usableFromInline
  package init(isPresented: Bool) {
    self.isPresented = isPresented
  }

  /// Dismisses the presented feature the calling effect belongs to.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard isPresented, let route = DismissRoute.current else {
      reportIssue(
        """
        A reducer requested dismissal at "\(fileID):\(line)", but couldn't be dismissed.

        This can happen when a reducer assumes it runs in a presentation context (a destination \
        of "ifLet" on "PresentationState", or an element of a navigation stack) while it runs \
        elsewhere, or when "dismiss" is called outside the effect of such a reducer. If a \
        reducer can run both at the root and presented, check @Dependency(\\.isPresented) \
        before calling @Dependency(\\.dismiss).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    await route.dismiss()
  }
}

/// How the effects of a presented feature dismiss it: the parent's dismissal action, sent
/// through the `send` of the effect at the parent's level. Installed around each `.run` of the
/// feature's effects by `Effect.map(_:dismissingWith:)`.
@usableFromInline
struct DismissRoute: Sendable {
  @TaskLocal static var current: DismissRoute?

  let dismiss: @Sendable () async -> Void

  @usableFromInline
  init(dismiss: @escaping @Sendable () async -> Void) {
    self.dismiss = dismiss
  }

  /// Runs `operation` with this route as `current`.
  @usableFromInline
  func install(_ operation: () async -> Void) async {
    await Self.$current.withValue(self) { await operation() }
  }
}

extension Effect {
  /// The effect with every action it sends transformed (as `map(_:)`), each of its `.run`
  /// operations able to dismiss the feature that created it: `@Dependency(\.dismiss)` called
  /// in them sends `action` (the parent's `.dismiss` or `.popFrom(id:)`) to the store. A
  /// nested presentation installs its own route inside, so the innermost presented feature is
  /// the one dismissed.
  ///
  /// One walk of the tree and one closure per `.run`, where `map` then a separate dismissing
  /// pass built every node and wrapped every operation twice.
  ///
  /// ```swift
  /// child.map({ embed(.presented($0)) }, dismissingWith: embed(.dismiss))
  /// ```
  @inlinable
  package func map<T: Sendable>(
    _ transform: @escaping @Sendable (Action) -> T, dismissingWith action: T
  ) -> Effect<T> {
    switch node {
    case .none:
      return .none
    case let .send(child):
      return Effect<T>(node: .send(transform(child)))
    case let .run(run):
      let operation = run.operation
      return Effect<T>(
        node: .run(
          run.running { send in
            await DismissRoute(dismiss: { await send(action) }).install {
              await operation(Send { child in send(transform(child)) })
            }
          }
        )
      )
    case let .merge(children):
      return Effect<T>(
        node: .merge(Self.mapping(children) { $0.map(transform, dismissingWith: action) }))
    case let .concatenate(children):
      return Effect<T>(
        node: .concatenate(
          Self.mapping(children) { $0.map(transform, dismissingWith: action) }))
    case let .cancellable(id, cancelInFlight, child):
      return Effect<T>(
        node: .cancellable(
          id: id, cancelInFlight: cancelInFlight, child.map(transform, dismissingWith: action)))
    case let .cancel(id, reason, isPerformed):
      return Effect<T>(node: .cancel(id: id, reason: reason, isPerformed: isPerformed))
    }
  }
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect(isPresented: false)
  static let testValue = DismissEffect(isPresented: false)
}

extension DependencyValues {
  /// Dismisses the presented feature whose effect calls it; see `DismissEffect`.
  ///
  /// A presented destination and a stack element run under a navigation step of their kind
  /// (their reducer adds it to the path): there, and in everything they run, it dismisses; it
  /// is not stored for each of their actions (storing it copied the overrides every time).
  public var dismiss: DismissEffect {
    get {
      noteRead(DismissKey.self)
      if let value = override(for: DismissKey.self) { return value }
      return DismissEffect(isPresented: navigationIDPath.isPresented)
    }
    set { self[DismissKey.self] = newValue }
  }

  /// Whether the reducer reading it runs as a presented destination or a stack element (where
  /// `dismiss` works).
  ///
  /// ```swift
  /// @Dependency(\.isPresented) var isPresented
  /// if isPresented { return .run { _ in await dismiss() } }
  /// ```
  public var isPresented: Bool {
    dismiss.isPresented
  }
}
