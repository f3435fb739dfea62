import Foundation
import XCTest

@testable import InspectorKit

/// docs/inspector.md lists every key of `inspector open`, in the words of the help overlay.
final class KeyBindingsDocumentationTests: XCTestCase {
  func testEveryKeyIsInTheInspectorPage() throws {
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/inspector.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    for group in KeyBindings.groups {
      XCTAssertTrue(text.contains("| **\(group.title)** | |"), group.title)
      for binding in group.bindings {
        XCTAssertTrue(
          text.contains("| `\(binding.keys)` | \(binding.action) |"),
          "docs/inspector.md lacks the row of \(binding.keys)")
      }
    }
  }
}
