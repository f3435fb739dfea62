import CLZ4

/// Writes one standard LZ4 frame in pieces: each call compresses the bytes given so far and
/// returns the frame's next bytes, so a trace stores a chunk as it grows without compressing
/// any byte twice. The pieces concatenated are one frame that `lz4 -dc` reads.
///
/// ```swift
/// let stream = try LZ4FrameStream(level: 3)
/// var frame = try stream.part(Array("a\n".utf8), ends: false)  // header + one block
/// frame += try stream.part(Array("b\n".utf8), ends: true)      // one block + end mark
/// print(String(decoding: try LZ4Frame.decompress(frame), as: UTF8.self))  // "a\nb\n"
/// ```
///
/// Blocks are linked (a block may refer to the 64 KiB before it, so small pieces compress
/// about as well as one large one) and carry their own checksums (a frame whose writer died
/// before its end mark can still be checked block by block); the end mark carries the content
/// checksum. The header declares no content size: it is written before the size is known.
package final class LZ4FrameStream {
  private let context: OpaquePointer
  private var preferences = LZ4F_preferences_t()
  private var inFrame = false

  /// A stream whose frames use LZ4 level `level` (0 fast, 3…12 high compression).
  package init(level: Int32) throws(LZ4FrameError) {
    var pointer: OpaquePointer?
    let created = LZ4F_createCompressionContext(&pointer, UInt32(LZ4F_VERSION))
    guard LZ4F_isError(created) == 0, let pointer else {
      throw .compressionFailed(LZ4Frame.errorName(created))
    }
    context = pointer
    preferences.frameInfo.blockSizeID = LZ4F_max64KB
    preferences.frameInfo.blockMode = LZ4F_blockLinked
    preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
    preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
    preferences.compressionLevel = level
    preferences.autoFlush = 1
  }

  deinit {
    LZ4F_freeCompressionContext(context)
  }

  /// Whether a frame has begun and not yet ended.
  package var isOpen: Bool { inFrame }

  /// The next bytes of the frame: its header when it begins, `bytes` compressed into blocks,
  /// and, when `ends`, the end mark and content checksum (the next call begins a new frame).
  package func part(_ bytes: [UInt8], ends: Bool) throws(LZ4FrameError) -> [UInt8] {
    let bound =
      Int(LZ4F_HEADER_SIZE_MAX) + LZ4F_compressBound(bytes.count, &preferences)
      + LZ4F_compressBound(0, &preferences)
    var failure: LZ4FrameError?
    let output = [UInt8](unsafeUninitializedCapacity: bound) { destination, count in
      count = 0
      guard let base = destination.baseAddress else { return }
      func check(_ code: Int) -> Bool {
        if LZ4F_isError(code) != 0 {
          failure = .compressionFailed(LZ4Frame.errorName(code))
          return false
        }
        count += code
        return true
      }
      if !inFrame {
        guard check(LZ4F_compressBegin(context, base, bound, &preferences)) else { return }
        inFrame = true
      }
      let written = bytes.withUnsafeBytes { source in
        LZ4F_compressUpdate(
          context, base + count, bound - count, source.baseAddress, source.count, nil)
      }
      guard check(written) else { return }
      if ends {
        guard check(LZ4F_compressEnd(context, base + count, bound - count, nil)) else { return }
        inFrame = false
      }
    }
    if let failure {
      inFrame = false
      throw failure
    }
    return output
  }

  /// The end mark and content checksum of the frame begun earlier (empty when none is open).
  package func end() throws(LZ4FrameError) -> [UInt8] {
    guard inFrame else { return [] }
    return try part([], ends: true)
  }
}
