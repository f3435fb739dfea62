/// One benchmark: a contract name, a target, and the measurement.
///
/// ```swift
/// struct SeekCase: BenchCase {
///   let name = "trace.seek.1m"
///   let target = Target.atMost(5)
///   func run(_ context: BenchContext) throws -> CaseResult { … }
/// }
/// ```
@MainActor
protocol BenchCase {
  /// The name the issue fixes (scripts key on it).
  var name: String { get }
  /// The target, known before the case runs (a case that cannot run still lists it).
  var target: Target { get }
  func run(_ context: BenchContext) throws -> CaseResult
}
