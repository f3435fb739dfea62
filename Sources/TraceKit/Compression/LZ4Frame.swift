import CLZ4

/// Standard LZ4 frames (the format of the `lz4` command), always with a content checksum, so
/// `lz4 -dc` can read every payload of a trace. `compress` declares the content size in the
/// header; a frame written in pieces by `LZ4FrameStream` cannot, and its reader is told the
/// size instead.
///
/// ```swift
/// let frame = try LZ4Frame.compress(Array("hello\n".utf8))
/// let back = try LZ4Frame.decompress(frame, limit: 1 << 20)
/// print(String(decoding: back, as: UTF8.self))  // hello
/// ```
package enum LZ4Frame {
  /// The largest content a frame may declare unless the caller says otherwise (64 MiB).
  package static let defaultLimit = 64 << 20

  /// Compresses `bytes` into one frame. `level` 0 is LZ4's fast mode; 3…12 are its
  /// high-compression modes (same frame format, smaller output, slower to write, as fast to
  /// read).
  package static func compress(_ bytes: [UInt8], level: Int32 = 0)
    throws(LZ4FrameError) -> [UInt8]
  {
    var preferences = LZ4F_preferences_t()
    preferences.frameInfo.blockSizeID = LZ4F_max64KB
    preferences.frameInfo.blockMode = LZ4F_blockLinked
    preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
    preferences.frameInfo.contentSize = UInt64(bytes.count)
    preferences.compressionLevel = level
    let bound = LZ4F_compressFrameBound(bytes.count, &preferences)
    if LZ4F_isError(bound) != 0 {
      throw .compressionFailed(errorName(bound))
    }
    var result: Result<Int, LZ4FrameError> = .success(0)
    let output = [UInt8](unsafeUninitializedCapacity: bound) { destination, count in
      let written = bytes.withUnsafeBytes { source in
        LZ4F_compressFrame(
          destination.baseAddress, bound, source.baseAddress, source.count, &preferences)
      }
      if LZ4F_isError(written) != 0 {
        result = .failure(.compressionFailed(errorName(written)))
        count = 0
      } else {
        count = written
      }
    }
    if case .failure(let error) = result { throw error }
    return output
  }

  /// Decompresses exactly one frame, checking its content checksum.
  ///
  /// The content size in the header is checked against `limit` before anything is allocated:
  /// a damaged or hostile file cannot make the reader allocate more than `limit` bytes.
  package static func decompress(
    _ frame: [UInt8], limit: Int = defaultLimit
  ) throws(LZ4FrameError) -> [UInt8] {
    let result = frame.withUnsafeBytes { buffer in
      Result { () throws(LZ4FrameError) in try decompress(buffer, limit: limit) }
    }
    return try result.get()
  }

  package static func decompress(
    _ frame: UnsafeRawBufferPointer, limit: Int = defaultLimit
  ) throws(LZ4FrameError) -> [UInt8] {
    try decompress(frame, size: nil, limit: limit, allowsMissingEnd: false).bytes
  }

  /// Decompresses one frame of `size` bytes of content (the frame may also declare it; then
  /// both must agree; `nil` takes the declared size). With `allowsMissingEnd`, a frame whose
  /// writer has not ended it yet is accepted when its blocks produce all `size` bytes (each
  /// block checked by its own checksum); `isEnded` says whether the end mark (and the content
  /// checksum behind it) was there.
  ///
  /// Nothing larger than `limit`, or than the size, is ever allocated.
  package static func decompress(
    _ frame: UnsafeRawBufferPointer, size expected: Int?, limit: Int = defaultLimit,
    allowsMissingEnd: Bool
  ) throws(LZ4FrameError) -> (bytes: [UInt8], isEnded: Bool) {
    guard let base = frame.baseAddress, !frame.isEmpty else { throw .truncated }
    var contextPointer: OpaquePointer?
    let created = LZ4F_createDecompressionContext(&contextPointer, UInt32(LZ4F_VERSION))
    guard LZ4F_isError(created) == 0, let context = contextPointer else {
      throw .malformed(errorName(created))
    }
    defer { LZ4F_freeDecompressionContext(context) }

    var info = LZ4F_frameInfo_t()
    var consumed = frame.count
    let header = LZ4F_getFrameInfo(context, &info, base, &consumed)
    if LZ4F_isError(header) != 0 {
      throw classify(header)
    }
    let declared = info.contentSize
    if let expected, declared != 0, declared != UInt64(expected) {
      throw .malformed("the frame declares \(declared) bytes of content, not \(expected)")
    }
    guard declared <= UInt64(limit) else { throw .tooLarge(size: declared, limit: limit) }
    // LZ4 writes 0 for "size unknown": without a size from the caller, content behind a 0 is
    // refused rather than trusted.
    let size = expected ?? Int(declared)
    guard size >= 0, size <= limit else { throw .tooLarge(size: UInt64(size), limit: limit) }

    var offset = consumed
    var produced = 0
    var ended = true
    var failure: LZ4FrameError?
    // One byte of slack lets us notice a frame that produces more than it declared.
    let output = [UInt8](unsafeUninitializedCapacity: size + 1) { destination, count in
      var hint = header
      while hint != 0 {
        var inputSize = frame.count - offset
        var outputSize = size + 1 - produced
        if inputSize == 0 {
          // The input ended before the end mark: all right only for a frame still being
          // written whose blocks gave everything (the check after the loop).
          if allowsMissingEnd {
            ended = false
          } else {
            failure = .truncated
          }
          break
        }
        hint = LZ4F_decompress(
          context, destination.baseAddress.map { $0 + produced }, &outputSize,
          base + offset, &inputSize, nil)
        if LZ4F_isError(hint) != 0 {
          failure = classify(hint)
          break
        }
        offset += inputSize
        produced += outputSize
        if produced > size {
          failure =
            expected == nil && declared == 0
            ? .missingContentSize : .malformed("content larger than its declared size")
          break
        }
        if inputSize == 0 && outputSize == 0 && hint != 0 {
          failure = .truncated
          break
        }
      }
      count = failure == nil ? produced : 0
    }
    if let failure { throw failure }
    guard produced == size else {
      throw ended ? .malformed("content smaller than its declared size") : .truncated
    }
    guard offset == frame.count else { throw .trailingBytes(count: frame.count - offset) }
    return (output, ended)
  }

  static func errorName(_ code: Int) -> String {
    guard let name = LZ4F_getErrorName(code) else { return "unknown LZ4 error" }
    return String(cString: name)
  }

  private static func classify(_ code: Int) -> LZ4FrameError {
    let name = errorName(code)
    if name.contains("Checksum_invalid") && !name.contains("Flag") {
      return .checksumMismatch
    }
    if name.contains("srcSize_wrong") || name.contains("frameHeader_incomplete") {
      return .truncated
    }
    return .malformed(name)
  }
}
