import Foundation

/// The committed traces in `Fixtures/Traces` (made by `tools/record-fixtures`).
///
/// ```swift
/// let path = FixtureTraces.path("todos.rewind")             // …/Fixtures/Traces/todos.rewind
/// let old = FixtureTraces.path("version-1/home.rewind")      // a trace in format version 1
/// ```
package enum FixtureTraces {
  /// `Fixtures/Traces` of the package this file belongs to.
  package static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Fixtures/Traces")

  package static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// The scenario traces (not the older-format samples in subfolders).
  package static var current: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".rewind") }.sorted().map(path)
  }
}
