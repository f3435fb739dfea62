import Locking

/// Makes the ids of `StackState` elements: generations 0, 1, 2, … (each generator counts
/// alone; a store's dependencies share one).
///
/// ```swift
/// let generator = StackElementIDGenerator()
/// generator()        // #0
/// generator.peek()   // #1 (not taken)
/// generator()        // #1
/// ```
public struct StackElementIDGenerator: Sendable {
  /// The next generation, shared by the copies of this generator.
  private final class Counter: Sendable {
    let next: Lock<Int>

    init(_ next: Int) {
      self.next = Lock(next)
    }
  }

  private let counter: Counter

  /// A generator whose first id has generation `generation`.
  public init(startingAt generation: Int = 0) {
    counter = Counter(generation)
  }

  /// The next id; the generator moves on.
  public func callAsFunction() -> StackElementID {
    counter.next.withLock { next in
      defer { next += 1 }
      return StackElementID(generation: next)
    }
  }

  /// The id the next call will make.
  public func peek() -> StackElementID {
    StackElementID(generation: counter.next.withLock { $0 })
  }

  /// A separate generator that continues from this one's next id (a test store's expectations
  /// make the ids the reducer made, without moving the store's generator).
  public func incrementingCopy() -> StackElementIDGenerator {
    StackElementIDGenerator(startingAt: peek().generation)
  }

  /// Moves past `id` when it is the next id (a `push` action with an id made elsewhere).
  func take(_ id: StackElementID) {
    counter.next.withLock { next in
      if id.generation >= next { next = id.generation + 1 }
    }
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  static let liveValue = StackElementIDGenerator()
  /// One generator for the process, like the live one (test values are not cached, and a
  /// fresh generator per read would give every element #0); a test store starts its own.
  static let testValue = StackElementIDGenerator()
}

extension DependencyValues {
  /// Makes the ids of elements pushed onto a `StackState`.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}
