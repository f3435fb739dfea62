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
}
