/// Cuts the bytes received on a connection into frames: a 4-byte big-endian length, then that
/// many bytes. Bytes of an incomplete frame wait for the rest; a length over the limit ends
/// the reading (the stream cannot be resynchronised).
///
/// ```swift
/// var reader = FrameReader(limit: LiveProtocol.requestLimit)
/// reader.append(received)
/// while let frame = try reader.next() { handle(frame) }
/// ```
package struct FrameReader: Sendable {
  package let limit: Int
  private var buffer: [UInt8] = []
  private var start = 0

  package init(limit: Int) {
    self.limit = limit
  }

  /// Bytes waiting for the rest of their frame.
  package var pendingBytes: Int { buffer.count - start }

  package mutating func append(_ bytes: [UInt8]) {
    if start > 0, start >= buffer.count / 2 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete frame's payload, or nil until one is complete.
  ///
  /// - Throws: `LiveProtocolError.frameTooLarge` when the next frame announces more than the
  ///   limit.
  package mutating func next() throws(LiveProtocolError) -> [UInt8]? {
    let available = buffer.count - start
    guard available >= LiveProtocol.headerBytes else { return nil }
    var length = 0
    for index in 0..<LiveProtocol.headerBytes {
      length = length << 8 | Int(buffer[start + index])
    }
    guard length <= limit else { throw .frameTooLarge(bytes: length, limit: limit) }
    guard available - LiveProtocol.headerBytes >= length else { return nil }
    let begin = start + LiveProtocol.headerBytes
    let payload = Array(buffer[begin..<(begin + length)])
    start = begin + length
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    return payload
  }

  /// Appends one frame holding `payload` to `output`.
  package static func frame(_ payload: [UInt8], into output: inout [UInt8]) {
    let length = UInt32(truncatingIfNeeded: payload.count)
    output.append(UInt8(truncatingIfNeeded: length >> 24))
    output.append(UInt8(truncatingIfNeeded: length >> 16))
    output.append(UInt8(truncatingIfNeeded: length >> 8))
    output.append(UInt8(truncatingIfNeeded: length))
    output.append(contentsOf: payload)
  }
}
