import Locking

/// Gives access to a random number generator: a value wrapping a closure that returns the next
/// 64 random bits, so tests (and typed replay) can replace or observe it.
///
/// ```swift
/// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
/// let roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
///
/// // In a test:
/// $0.withRandomNumberGenerator = WithRandomNumberGenerator(seed: 42)
/// ```
public struct WithRandomNumberGenerator: Sendable {
  /// Returns the next 64 random bits.
  public let next: @Sendable () -> UInt64

  /// A generator from a closure returning the next 64 random bits.
  ///
  /// Each value it gives while a store reduces on this thread is reported to the store's
  /// instrument (the Recorder), once even when this generator calls another.
  public init(next: @escaping @Sendable () -> UInt64) {
    self.next = { ReducingContext.read(next, report: DependencyValueRead.random) }
  }

  /// A generator wrapping a random number generator (shared behind a lock).
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    let shared = Lock(generator)
    self.init(next: { shared.withLock { $0.next() } })
  }

  /// A deterministic generator (SplitMix64) from a seed.
  public init(seed: UInt64) {
    self.init(SplitMix64(seed: seed))
  }

  /// Runs `work` with the generator.
  public func callAsFunction<R>(_ work: (inout any RandomNumberGenerator) throws -> R) rethrows
    -> R
  {
    var generator: any RandomNumberGenerator = ClosureGenerator(generate: next)
    return try work(&generator)
  }
}

/// Adapts the `next` closure to `RandomNumberGenerator`.
struct ClosureGenerator: RandomNumberGenerator {
  let generate: @Sendable () -> UInt64

  mutating func next() -> UInt64 {
    generate()
  }
}

private enum WithRandomNumberGeneratorKey: DependencyKey {
  static let liveValue = WithRandomNumberGenerator(SystemRandomNumberGenerator())
  static var testValue: WithRandomNumberGenerator {
    let fallback = WithRandomNumberGenerator(seed: 0)
    return WithRandomNumberGenerator(next: {
      reportUnimplemented(
        "\\.withRandomNumberGenerator",
        fix: "$0.withRandomNumberGenerator = WithRandomNumberGenerator(seed: 0)"
      )
      return fallback.next()
    })
  }
}

extension DependencyValues {
  /// A random number generator. Live: the system's. In tests: must be overridden.
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGeneratorKey.self] }
    set { self[WithRandomNumberGeneratorKey.self] = newValue }
  }
}
