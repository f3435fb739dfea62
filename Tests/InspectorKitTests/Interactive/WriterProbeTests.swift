import XCTest

@testable import InspectorKit

final class WriterProbeTests: XCTestCase {
  func testALockOnByte128OfTheSharedMemoryFileByAnotherProcessCounts() {
    let file = "fe:00:16269806"
    XCTAssertTrue(
      WriterProbe.holds(
        "7: POSIX  ADVISORY  READ 31942 fe:00:16269806 128 128", file: file, excluding: 1))
    XCTAssertTrue(
      WriterProbe.holds(
        "7: POSIX  ADVISORY  WRITE 31942 FE:00:16269806 120 EOF", file: file, excluding: 1))
    // This process's own lock, another byte, another file, a waiting lock, a flock.
    XCTAssertFalse(
      WriterProbe.holds(
        "7: POSIX  ADVISORY  READ 31942 fe:00:16269806 128 128", file: file, excluding: 31942))
    XCTAssertFalse(
      WriterProbe.holds(
        "7: POSIX  ADVISORY  READ 31942 fe:00:16269806 120 127", file: file, excluding: 1))
    XCTAssertFalse(
      WriterProbe.holds(
        "7: POSIX  ADVISORY  READ 31942 fe:00:16269807 128 128", file: file, excluding: 1))
    XCTAssertFalse(
      WriterProbe.holds(
        "7: -> POSIX  ADVISORY  READ 31942 fe:00:16269806 128 128", file: file, excluding: 1))
    XCTAssertFalse(
      WriterProbe.holds(
        "3: FLOCK  ADVISORY  WRITE 31942 fe:00:16269806 0 EOF", file: file, excluding: 1))
  }
}
