import CLineLZ4

/// Writes one standard LZ4 frame in pieces: each call compresses the bytes given so far and
/// returns the frame's next bytes, so a trace stores a chunk as it grows without compressing
/// any byte twice. The pieces concatenated are one frame that `lz4 -dc` reads.
///
/// ```swift
/// let stream = try LZ4FrameStream()
/// var frame = try stream.part(Array("a\n".utf8), ends: false)  // header + one block
/// frame += try stream.part(Array("b\n".utf8), ends: true)      // one block + end mark
/// print(String(decoding: try LZ4Frame.decompress(frame), as: UTF8.self))  // "a\nb\n"
/// ```
///
/// Blocks are linked (a block may refer to the 64 KiB before it, so small pieces compress
/// about as well as one large one) and carry their own checksums (a frame whose writer died
/// before its end mark can still be checked block by block); the end mark carries the content
/// checksum. The header declares no content size: it is written before the size is known.
///
/// The compressor is CLineLZ4's, made for JSON Lines that repeat one another (step lines): it
/// tries a few cheap candidates at each position (the last match's offset, the last equal
/// line, eight hashed positions) where LZ4's high-compression mode walks a chain at every
/// byte. On recorded step lines it stores between 5 % less and 13 % more than that mode's
/// level 3, for a quarter to a half of its instructions.
package final class LZ4FrameStream {
  private let stream: UnsafeMutablePointer<rewind_line_lz4>

  package init() throws(LZ4FrameError) {
    guard let stream = rewind_line_lz4_create() else {
      throw .compressionFailed("out of memory")
    }
    self.stream = stream
  }

  deinit {
    rewind_line_lz4_free(stream)
  }

  /// Whether a frame has begun and not yet ended.
  package var isOpen: Bool { rewind_line_lz4_is_open(stream) != 0 }

  /// The next bytes of the frame: its header when it begins, `bytes` compressed into blocks,
  /// and, when `ends`, the end mark and content checksum (the next call begins a new frame).
  package func part(_ bytes: [UInt8], ends: Bool) throws(LZ4FrameError) -> [UInt8] {
    let bound = rewind_line_lz4_bound(bytes.count)
    var failed = false
    let output = [UInt8](unsafeUninitializedCapacity: bound) { destination, count in
      count = 0
      guard let base = destination.baseAddress else { return }
      // SIZE_MAX (-1 here) when memory is short or the frame would pass 4 GiB.
      let written = bytes.withUnsafeBufferPointer { source in
        rewind_line_lz4_part(stream, source.baseAddress, source.count, ends ? 1 : 0, base)
      }
      if written < 0 || written > bound {
        failed = true
      } else {
        count = written
      }
    }
    if failed { throw .compressionFailed("out of memory, or a frame past 4 GiB") }
    return output
  }

  /// The end mark and content checksum of the frame begun earlier (empty when none is open).
  package func end() throws(LZ4FrameError) -> [UInt8] {
    guard isOpen else { return [] }
    return try part([], ends: true)
  }
}
