import Foundation
import TestSupport
import XCTest

@testable import TraceKit

#if canImport(Glibc)
  import Glibc
#endif

/// A synthetic trace being written, with the state after every step appended so far.
private final class SyntheticWriting {
  let writer: TraceWriter
  private var trace = SyntheticTrace()
  private(set) var states: [TraceValue]

  init(path: String) throws {
    writer = try TraceWriter(
      path: path, metadata: SyntheticTrace.metadata, initialState: trace.state)
    states = [trace.state]
  }

  var lastStep: Int { trace.step }

  func append(_ count: Int) throws {
    for _ in 0..<count {
      let (record, state) = trace.next()
      try writer.append(record, state: state)
      states.append(state)
    }
  }
}

/// What a trace file is on disk: owner-only, appended to and never rewritten, one file once
/// closed, and never lost without a word (removed while written, its writer gone).
final class TraceFileSafetyTests: XCTestCase {
  func mode(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
  }

  func testTraceAndItsLogFilesAreOwnerOnlyWhateverTheUmask() throws {
    for mask: mode_t in [0o000, 0o022, 0o077, 0o277] {
      let directory = try TemporaryDirectory()
      let path = directory.path("t.rewind")
      let previous = umask(mask)
      defer { umask(previous) }
      let writing = try SyntheticWriting(path: path)
      try writing.append(1)
      try writing.writer.flush()
      let reader = try TraceReader(path: path)
      XCTAssertEqual(try reader.lastStep(), 1)
      for file in [path, path + "-wal", path + "-shm"] {
        XCTAssertEqual(mode(file), 0o600, "\(file) with umask \(String(mask, radix: 8))")
      }
      try writing.writer.close(readerGrace: .zero)
      XCTAssertEqual(mode(path), 0o600)
    }
  }

  func testAFlushStoresOnlyTheNewLinesAndNeverRewritesARow() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writing = try SyntheticWriting(path: path)
    var rowsSeen: [Int64: [UInt8]] = [:]
    func checkRows(_ expected: [Int64]) throws {
      let db = try SQLiteConnection(path: path, mode: .readOnly)
      let statement = try db.prepare("SELECT first_step, chunk, data FROM chunks ORDER BY 1")
      var keys: [Int64] = []
      while try statement.step() {
        let key = statement.int64(at: 0)
        XCTAssertEqual(statement.int64(at: 1), 0, "every row so far belongs to chunk 0")
        let data = statement.withBlob(at: 2) { Array($0) }
        if let earlier = rowsSeen[key] {
          XCTAssertEqual(data, earlier, "the row of step \(key) was rewritten")
        }
        rowsSeen[key] = data
        keys.append(key)
      }
      statement.reset()
      XCTAssertEqual(keys, expected)
    }
    try checkRows([0])
    for flush in 0..<3 {
      try writing.append(10)
      try writing.writer.flush()
      try checkRows(Array([0, 1, 11, 21].prefix(flush + 2)))
      // A reader sees every step of the chunk that is still open (its frame has no end).
      let reader = try TraceReader(path: path)
      XCTAssertEqual(try reader.state(at: writing.lastStep), writing.states[writing.lastStep])
      XCTAssertEqual(try reader.info().chunkCount, 1)
    }
    try writing.writer.close(readerGrace: .zero)
    // Closing ends the frame: the last row gets the end mark, and the parts concatenated
    // are one LZ4 frame that decompresses to the lines of steps 0…30.
    let db = try SQLiteConnection(path: path, mode: .readOnly)
    let frame = Array(
      try db.prepare("SELECT data FROM chunks ORDER BY first_step").collectBlobs().joined())
    let size = Int(try XCTUnwrap(db.scalarInt("SELECT SUM(raw_size) FROM chunks")))
    let decoded = try frame.withUnsafeBytes { buffer in
      try LZ4Frame.decompress(buffer, size: size, allowsMissingEnd: false)
    }
    XCTAssertTrue(decoded.isEnded)
    XCTAssertEqual(String(decoding: decoded.bytes, as: UTF8.self).split(separator: "\n").count, 31)
    XCTAssertEqual(rowsSeen[1], try db.prepare(
      "SELECT data FROM chunks WHERE first_step = 1").collectBlobs().first)
    let reader = try TraceReader(path: path)
    for step in 0...30 { XCTAssertEqual(try reader.state(at: step), writing.states[step]) }
  }

  func testAClosedTraceWhoseFrameLacksItsEndIsDamaged() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 30, chunkStepLimit: 2_048)
    let db = try SQLiteConnection(path: path, mode: .readWrite)
    let last = try XCTUnwrap(db.scalarInt("SELECT MAX(first_step) FROM chunks"))
    let data = try XCTUnwrap(
      db.prepare("SELECT data FROM chunks WHERE first_step = \(last)").collectBlobs().first)
    // Without its 4-byte end mark and 4-byte content checksum.
    let update = try db.prepare("UPDATE chunks SET data = ? WHERE first_step = ?")
    try update.bind(blob: Array(data.dropLast(8)), at: 1)
    try update.bind(Int(last), at: 2)
    try update.run()
    db.close()
    let reader = try TraceReader(path: path)
    XCTAssertThrowsError(try reader.action(at: 30)) { error in
      XCTAssertEqual(
        "\(error)",
        "\(path): step 30 (chunk 0): payload chunk is damaged: its LZ4 frame has no end mark")
    }
  }

  func testRemovingTheFileWhileWritingFailsTheNextCommit() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writing = try SyntheticWriting(path: path)
    let writer = writing.writer
    try writing.append(5)
    try writer.flush()
    XCTAssertEqual(writer.committedStep, 5)
    try FileManager.default.removeItem(atPath: path)
    try writing.append(1)
    XCTAssertThrowsError(try writer.flush()) { error in
      XCTAssertEqual(
        "\(error)", "\(path): the trace file was removed or replaced while it was being written")
    }
    XCTAssertThrowsError(try writer.close()) { error in
      XCTAssertEqual((error as? TraceError)?.kind, .fileRemoved, "the writer stays failed")
    }
  }

  func testReadersSeeWhetherTheWriterIsThere() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writing = try SyntheticWriting(path: path)
    let writer = writing.writer
    try writing.append(1)
    try writer.flush()
    let reader = try TraceReader(path: path)
    XCTAssertEqual(try reader.info().isWriterAlive, true)
    XCTAssertFalse(try reader.info().isWriterGone)
    try writer.close(readerGrace: .zero)
    let info = try reader.info()
    XCTAssertTrue(info.isComplete)
    XCTAssertFalse(info.isWriterGone)
  }

  func testAClosedTraceIsWholeInItsFileEvenIfAReaderKeptTheLogOpen() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    let writing = try SyntheticWriting(path: path)
    try writing.append(40)
    try writing.writer.flush()
    var reader: TraceReader? = try TraceReader(path: path)
    XCTAssertEqual(try reader?.lastStep(), 40)
    try writing.writer.close(readerGrace: .milliseconds(50))
    XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "kept by the reader")
    reader = nil
    // Only the trace file, copied elsewhere: everything is in it.
    let copy = try TemporaryDirectory()
    try FileManager.default.copyItem(atPath: path, toPath: copy.path("t.rewind"))
    let alone = try TraceReader(path: copy.path("t.rewind"))
    XCTAssertTrue(try alone.info().isComplete)
    XCTAssertEqual(try alone.state(at: 40), writing.states[40])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: copy.url.path), ["t.rewind"],
      "reading it created no log files")
  }

  func testAClosedTraceWithoutReadersIsOneFileWithinTheGrace() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("t.rewind")
    try writeSyntheticTrace(at: path, steps: 10)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path), ["t.rewind"])
  }
}

extension SQLiteStatement {
  /// Every row's first column as bytes.
  func collectBlobs() throws -> [[UInt8]] {
    var blobs: [[UInt8]] = []
    defer { reset() }
    while try step() { blobs.append(withBlob(at: 0) { Array($0) }) }
    return blobs
  }
}
