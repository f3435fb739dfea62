import ComposableCore

/// `send.case-key-path.scope`: what a `Scope` written with a case key path
/// (`Scope(state: \.child, action: \.child)`) adds to a `send`, against the same scope written
/// with an `AnyCasePath` property (`action: .child`). A body is rebuilt for every action, so the
/// key path literal is evaluated and turned into its case path every time (a `CaseMemberKeyPath`
/// here: the key path to the `AllCasePaths` member, made once per place it is written).
struct CaseKeyPathScopeCase: BenchCase {
  let name = "send.case-key-path.scope"
  let target = Target.atMost(100)

  func run(_ context: BenchContext) throws -> CaseResult {
    let sends = context.scale.sendsPerSample
    var overheads: [Double] = []
    var baseTimes: [Double] = []
    var ratios: [Double] = []
    let warmUp = 3
    for round in 0..<(warmUp + context.scale.samples) {
      let keyPathFirst = round % 2 == 0
      let keyPath: Double
      let casePath: Double
      if keyPathFirst {
        keyPath = timeSends(Store(initialState: KeyPathParent.State()) { KeyPathParent() }, sends)
        casePath = timeSends(
          Store(initialState: CasePathParent.State()) { CasePathParent() }, sends)
      } else {
        casePath = timeSends(
          Store(initialState: CasePathParent.State()) { CasePathParent() }, sends)
        keyPath = timeSends(Store(initialState: KeyPathParent.State()) { KeyPathParent() }, sends)
      }
      guard round >= warmUp else { continue }
      overheads.append(keyPath - casePath)
      baseTimes.append(casePath)
      ratios.append(keyPath / casePath)
    }
    let measured = Samples(overheads)
    return CaseResult(
      name: name, value: measured.median, unit: "ns", spread: Spread(measured),
      baseline: Baseline(
        label: "AnyCasePath scope", value: Samples(baseTimes).median, unit: "ns"),
      ratio: Samples(ratios).median, target: target,
      note: "case key path scope minus AnyCasePath scope per send, \(sends) sends per sample")
  }

  /// Nanoseconds per send of a child action.
  private func timeSends<State>(_ store: Store<State, ScopeParentAction>, _ count: Int)
    -> Double
  {
    store.send(.child(.tick))
    let start = Stopwatch.now()
    for _ in 0..<count { store.send(.child(.tick)) }
    return Double(Stopwatch.now() - start) / Double(count)
  }
}

/// The child both parents scope to.
struct ScopeChild: Reducer {
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable, Sendable { case tick }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.ticks += 1
    return .none
  }
}

/// The action of both parents, with its case paths written as `@CasePathable` would.
enum ScopeParentAction: Equatable, Sendable, CasePathable {
  case child(ScopeChild.Action)

  struct AllCasePaths {
    var child: AnyCasePath<ScopeParentAction, ScopeChild.Action> {
      AnyCasePath(embed: ScopeParentAction.child) {
        guard case let .child(action) = $0 else { return nil }
        return action
      }
    }
  }

  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension AnyCasePath where Root == ScopeParentAction, Value == ScopeChild.Action {
  static var child: Self { ScopeParentAction.allCasePaths.child }
}

struct KeyPathParent: Reducer {
  struct State: Equatable { var child = ScopeChild.State() }
  typealias Action = ScopeParentAction

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { ScopeChild() }
  }
}

struct CasePathParent: Reducer {
  struct State: Equatable { var child = ScopeChild.State() }
  typealias Action = ScopeParentAction

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .child) { ScopeChild() }
  }
}
