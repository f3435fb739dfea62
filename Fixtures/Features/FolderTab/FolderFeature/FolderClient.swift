import ComposableCore
import FixtureSupport
import FolderInterface
import Foundation
import Synchronization

/// Stores the climbing folders.
///
/// ```swift
/// @Dependency(\.folderClient) var folderClient
/// try await folderClient.fetchAll().map(\.name)  // ["Bouldering", "Lead", …]
/// ```
public struct FolderClient: Sendable {
  public var fetchAll: @Sendable () async throws -> [Folder]
  /// Stores a new folder and returns it as stored.
  public var create: @Sendable (_ folder: Folder) async throws -> Folder
  /// Deletes a folder and returns its id.
  public var delete: @Sendable (_ id: Folder.ID) async throws -> Folder.ID

  public init(
    fetchAll: @escaping @Sendable () async throws -> [Folder],
    create: @escaping @Sendable (_ folder: Folder) async throws -> Folder,
    delete: @escaping @Sendable (_ id: Folder.ID) async throws -> Folder.ID
  ) {
    self.fetchAll = fetchAll
    self.create = create
    self.delete = delete
  }
}

extension FolderClient {
  /// The folders a fresh install shows.
  public static let sampleFolders: [Folder] = [
    Folder(
      id: UUID(fixture: 1, namespace: 0xF0), name: "Bouldering", recordCount: 12,
      lastClimbedOn: CalendarDay(year: 2026, month: 5, day: 10)),
    Folder(
      id: UUID(fixture: 2, namespace: 0xF0), name: "Lead", recordCount: 5,
      lastClimbedOn: CalendarDay(year: 2026, month: 5, day: 3)),
    Folder(
      id: UUID(fixture: 3, namespace: 0xF0), name: "Outdoor", recordCount: 2,
      lastClimbedOn: CalendarDay(year: 2026, month: 4, day: 26)),
    Folder(
      id: UUID(fixture: 4, namespace: 0xF0), name: "Training", recordCount: 9,
      lastClimbedOn: CalendarDay(year: 2026, month: 5, day: 10)),
  ]

  /// The live client: an in-memory store seeded with `sampleFolders`, each call after a short
  /// wait on the clock dependency (standing in for the disk).
  public static var live: FolderClient {
    let folders = Mutex(sampleFolders)
    @Sendable func wait() async throws {
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .milliseconds(150))
    }
    return FolderClient(
      fetchAll: {
        try await wait()
        return folders.withLock { $0 }
      },
      create: { folder in
        try await wait()
        try folders.withLock { folders in
          guard !folders.contains(where: { $0.name == folder.name }) else {
            throw FetchFailure(message: "a folder named \"\(folder.name)\" exists")
          }
          folders.append(folder)
        }
        return folder
      },
      delete: { id in
        try await wait()
        try folders.withLock { folders in
          guard let index = folders.firstIndex(where: { $0.id == id }) else {
            throw FetchFailure(message: "no folder \(id.uuidString)")
          }
          folders.remove(at: index)
        }
        return id
      }
    )
  }

  /// The test client: `sampleFolders`, and every create and delete succeeds, at once.
  public static var immediate: FolderClient {
    FolderClient(
      fetchAll: { sampleFolders },
      create: { $0 },
      delete: { $0 }
    )
  }
}

enum FolderClientKey: DependencyKey {
  static var liveValue: FolderClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: FolderClient { .live }
}

extension DependencyValues {
  /// The folder store. Live: `FolderClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var folderClient: FolderClient {
    get { self[FolderClientKey.self] }
    set { self[FolderClientKey.self] = newValue }
  }
}
