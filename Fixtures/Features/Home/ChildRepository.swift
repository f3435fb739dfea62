import ComposableCore
import FixtureSupport
import Synchronization

/// Stores the family's children (seed 002's `ChildRepository`).
///
/// ```swift
/// @Dependency(\.childRepository) var childRepository
/// try await childRepository.fetchAll().map(\.name)  // ["Jiwoo", "Seoyun"]
/// ```
public struct ChildRepository: Sendable {
  public var fetchAll: @Sendable () async throws -> [Child]
  /// Stores a changed child and returns it as stored.
  public var update: @Sendable (_ child: Child) async throws -> Child

  public init(
    fetchAll: @escaping @Sendable () async throws -> [Child],
    update: @escaping @Sendable (_ child: Child) async throws -> Child
  ) {
    self.fetchAll = fetchAll
    self.update = update
  }
}

extension ChildRepository {
  /// The children a sample family has.
  public static let sampleChildren = [
    Child(id: "child-1", name: "Jiwoo", nickname: "Woo", school: "Hanbit Elementary"),
    Child(id: "child-2", name: "Seoyun", nickname: "Yuni", school: "Hanbit Kindergarten"),
  ]

  /// The live repository: an in-memory family, each call after a short wait on the clock
  /// dependency (standing in for the sync engine of the seed).
  public static var live: ChildRepository {
    let children = Mutex(sampleChildren)
    return ChildRepository(
      fetchAll: {
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(150))
        return children.withLock { $0 }
      },
      update: { child in
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(150))
        return try children.withLock { children in
          guard let index = children.firstIndex(where: { $0.id == child.id }) else {
            throw FetchFailure(message: "no child \(child.id)")
          }
          children[index] = child
          return child
        }
      }
    )
  }

  /// The test repository (the seed's `.mock()`): the sample family, every update succeeds.
  public static var mock: ChildRepository {
    ChildRepository(fetchAll: { sampleChildren }, update: { $0 })
  }
}

enum ChildRepositoryKey: DependencyKey {
  static var liveValue: ChildRepository { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: ChildRepository { .live }
}

extension DependencyValues {
  /// The children. Live: `ChildRepository.live`. In tests: the
  /// same, on the test clock; `.mock` answers at once.
  public var childRepository: ChildRepository {
    get { self[ChildRepositoryKey.self] }
    set { self[ChildRepositoryKey.self] = newValue }
  }
}
