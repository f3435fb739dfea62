import Foundation
import XCTest

/// Keeps the package usable as a versioned dependency: SwiftPM refuses `unsafeFlags` in any
/// package an app depends on by version ("the target 'X' contains unsafe build flags"), so the
/// core's speed must come from `@inlinable` code, never from a compiler flag in the manifest.
final class PackageManifestTests: XCTestCase {
  /// `Package.swift` of the package this file belongs to.
  private static let manifest = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Package
    .deletingLastPathComponent()  // ComposableCoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Package.swift")

  func testTheManifestHasNoUnsafeFlags() throws {
    let text = try String(contentsOf: Self.manifest, encoding: .utf8)
    let problems = Self.unsafeFlagLines(in: text)
    XCTAssertEqual(
      problems, [],
      """
      Package.swift uses unsafeFlags: SwiftPM refuses a package with unsafe build flags as a \
      versioned dependency. Use @inlinable/@usableFromInline instead. Lines: \
      \(problems.map(String.init).joined(separator: ", "))
      """)
  }

  func testTheCheckFindsUnsafeFlagsInCodeNotInComments() {
    let text = """
      // unsafeFlags are not allowed (a comment)
      .target(name: "A"),
      .target(name: "B", swiftSettings: [.unsafeFlags(["-Ounchecked"])]),
        linkerSettings: [.unsafeFlags(["-lz"])]  // unsafeFlags again
      """
    XCTAssertEqual(Self.unsafeFlagLines(in: text), [3, 4])
  }

  /// The 1-based numbers of the lines whose code (before any `//` comment) mentions
  /// `unsafeFlags`.
  private static func unsafeFlagLines(in text: String) -> [Int] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
      index, line in
      let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
      return code.contains("unsafeFlags") ? index + 1 : nil
    }
  }
}
