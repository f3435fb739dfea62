import Foundation
import XCTest

/// `Lock` is the package's one lock (see `Sources/Locking/Lock.swift`): a `Mutex` used
/// directly is invisible to the ThreadSanitizer build again, so no source file outside
/// `Sources/Locking` (or this suite) names it. `Fixtures/` is left out: its features stand
/// for an app's own code, which locks with what the standard library gives it.
final class LockSeamTests: XCTestCase {
  func testNoSourceFileOutsideLockingUsesMutexDirectly() throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var offenders: [String] = []
    for folder in ["Sources", "Tests", "Benchmarks"] {
      let base = root.appendingPathComponent(folder)
      let files = try XCTUnwrap(FileManager.default.enumerator(atPath: base.path), base.path)
      for case let path as String in files where path.hasSuffix(".swift") {
        let relative = "\(folder)/\(path)"
        if relative.hasPrefix("Sources/Locking/") || relative.hasPrefix("Tests/LockingTests/") {
          continue
        }
        let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated() where Self.namesMutex(line)
        {
          offenders.append("\(relative):\(number + 1)")
        }
      }
    }
    XCTAssertEqual(offenders, [])
  }

  func testTheRuleFindsMutexAsAWordAndNothingElse() {
    XCTAssertTrue(Self.namesMutex("  let state = Mutex<Int>(0)"))
    XCTAssertTrue(Self.namesMutex("private let lock: Mutex<State>"))
    XCTAssertFalse(Self.namesMutex("  let state = Lock<Int>(0)"))
    XCTAssertFalse(Self.namesMutex("pthread_mutex_t"))
    XCTAssertFalse(Self.namesMutex("MutexLike"))
  }

  /// Whether `line` names `Mutex` as a whole word.
  private static func namesMutex(_ line: Substring) -> Bool {
    line.range(of: #"\bMutex\b"#, options: .regularExpression) != nil
  }
}
