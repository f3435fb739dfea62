import ComposableCore
import TraceRecorder

/// A scenario with its types erased, for the command line.
///
/// ```swift
/// let scenario = AnyScenario(CounterScenario())
/// scenario.name  // "counter"
/// ```
struct AnyScenario: Sendable {
  let name: String
  let summary: String
  let record:
    @MainActor @Sendable (_ path: String, _ steps: Int, _ seed: UInt64) async throws(DemoError)
      -> String
  let run:
    @MainActor @Sendable (_ options: LiveOptions, _ stop: StopSignal) async throws(DemoError)
      -> String
  let replay: @Sendable (_ path: String) throws(DemoError) -> ReplayResult
  let chaos:
    @Sendable (_ path: String, _ seed: UInt64, _ runs: Int) throws(DemoError) -> ChaosReport

  init<S: Scenario>(_ scenario: S) {
    name = scenario.name
    summary = scenario.summary
    record = { path, steps, seed throws(DemoError) in
      try await ScriptedSession(scenario: scenario, seed: seed, steps: steps).record(to: path)
    }
    run = { options, stop throws(DemoError) in
      try await LiveSession(scenario: scenario, options: options).run(stop: stop)
    }
    replay = { path throws(DemoError) in
      // Live values even when a test process launched the demo (its environment says
      // "testing", which would select test values).
      let result = withDependencies {
        $0.context = .live
      } operation: { () -> Result<ReplayResult, ReplayError> in
        do throws(ReplayError) {
          return .success(try Replay(trace: path, reducer: scenario.makeReplayReducer()).run())
        } catch {
          return .failure(error)
        }
      }
      switch result {
      case let .success(outcome): return outcome
      case let .failure(error): throw DemoError.replay(error)
      }
    }
    chaos = { path, seed, runs throws(DemoError) in
      let result = withDependencies {
        $0.context = .live
      } operation: { () -> Result<ChaosReport, ReplayError> in
        do throws(ReplayError) {
          return .success(
            try Replay(trace: path, reducer: scenario.makeReplayReducer())
              .chaos(seed: seed, runs: runs))
        } catch {
          return .failure(error)
        }
      }
      switch result {
      case let .success(report): return report
      case let .failure(error): throw DemoError.replay(error)
      }
    }
  }

  /// Every scenario, in the order `list` shows them.
  static let all: [AnyScenario] = [
    AnyScenario(CounterScenario()),
    AnyScenario(WeatherScenario()),
    AnyScenario(FolderTabScenario()),
    AnyScenario(HomeScenario()),
    AnyScenario(TodosScenario()),
    AnyScenario(TodosScenario(bug: .moveIgnoresFilter)),
    AnyScenario(SearchScenario()),
    AnyScenario(SearchScenario(bug: .forgetsCancelInFlight)),
  ]

  /// The scenario with this name.
  static func named(_ name: String) -> AnyScenario? {
    all.first { $0.name == name }
  }
}
