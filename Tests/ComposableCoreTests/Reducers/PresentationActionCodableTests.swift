import ComposableCore
import Foundation
import XCTest

final class PresentationActionCodableTests: XCTestCase {
  // Recorded traces name presentation actions like any other enum case (`sheet.presented.…`),
  // so the encoded shape must be the one Swift synthesizes for an enum with a payload.
  func testEncodesInTheSynthesizedEnumShape() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let presented = try encoder.encode(PresentationAction<String>.presented("x"))
    let dismiss = try encoder.encode(PresentationAction<String>.dismiss)
    XCTAssertEqual(String(decoding: presented, as: UTF8.self), #"{"presented":{"_0":"x"}}"#)
    XCTAssertEqual(String(decoding: dismiss, as: UTF8.self), #"{"dismiss":{}}"#)
  }

  func testDecodesBothCasesAndRefusesTwoCasesAtOnce() throws {
    let decoder = JSONDecoder()
    XCTAssertEqual(
      try decoder.decode(
        PresentationAction<String>.self, from: Data(#"{"presented":{"_0":"x"}}"#.utf8)),
      .presented("x")
    )
    XCTAssertEqual(
      try decoder.decode(PresentationAction<String>.self, from: Data(#"{"dismiss":{}}"#.utf8)),
      .dismiss
    )
    XCTAssertThrowsError(
      try decoder.decode(
        PresentationAction<String>.self,
        from: Data(#"{"dismiss":{},"presented":{"_0":"x"}}"#.utf8))
    ) { error in
      guard case .typeMismatch = error as? DecodingError else {
        return XCTFail("expected a type mismatch, got \(error)")
      }
    }
  }
}
