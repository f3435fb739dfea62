import Foundation
import TraceKit
import XCTest

@testable import InspectorKit

final class JSONOutputTests: XCTestCase {
  func testFieldsKeepTheirOrderAndStringsAreEscaped() {
    var json = JSONOutput()
    json.object { j in
      j.field("b") { $0.int(1) }
      j.field("a") { $0.string("x\"\n\u{1B}") }
      j.field("list") { j in j.array { j in j.bool(true); j.null(); j.double(.nan) } }
    }
    XCTAssertEqual(json.text, #"{"b":1,"a":"x\"\n\u001b","list":[true,null,null]}"#)
  }

  func testRecordedValuesNeverCarryTerminalControlsRaw() {
    var json = JSONOutput()
    json.value(.string("\u{1B}[31m \u{9B}31m \u{7F} \u{202E}"))
    XCTAssertEqual(json.text, #""\u001b[31m \u009b31m \u007f \u202e""#)
  }

  func testInvisibleCharactersBeyondTheBasicPlaneAreSurrogatePairs() {
    var json = JSONOutput()
    json.array { j in
      j.string("tag\u{E0041} zero\u{200B}")
      j.value(.string("tag\u{E0041}"))
    }
    XCTAssertEqual(json.text, #"["tag\udb40\udc41 zero\u200b","tag\udb40\udc41"]"#)
    let parsed = try? JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String]
    XCTAssertEqual(parsed, ["tag\u{E0041} zero\u{200B}", "tag\u{E0041}"])
  }
}
