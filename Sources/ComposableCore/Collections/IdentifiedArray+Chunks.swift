#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension IdentifiedArray {
  /// The number of element chunks (`chunkLength` elements each, the last one possibly fewer).
  package var chunkCount: Int {
    if let words = chunkWords { return words.count }
    return _chunks.count
  }

  /// `_chunks` read as the words its chunks are, where an array is one word (every 64-bit
  /// platform Swift runs on); nil elsewhere. Unspecialized code (the recorder's writer) that
  /// asks `_chunks` for its count or a chunk calls the standard library's generic `Array`
  /// with the metadata of `[Element]`, looked up in the runtime's cache each time (about 340
  /// instructions a call; callgrind); a list of words needs no metadata.
  @inline(__always)
  private var chunkWords: [UnsafeRawPointer]? {
    guard MemoryLayout<[Element]>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
    return unsafeBitCast(_chunks, to: [UnsafeRawPointer].self)
  }

  /// The positions chunk `chunk` holds.
  ///
  /// ```swift
  /// rows.chunkRange(1)  // 64..<128 (for 200 rows)
  /// ```
  package func chunkRange(_ chunk: Int) -> Range<Int> {
    let start = chunk * Self.chunkLength
    return start..<Swift.min(start + Self.chunkLength, _ids.count)
  }

  /// The chunks of this array whose storage is not the storage of `other`'s chunk at the same
  /// index (every chunk past `other`'s last): O(number of chunks), no element compared.
  ///
  /// Two copies of one array share every chunk until one of them changes; changing an element
  /// copies only its chunk. So for a later version of the same array, the chunks not listed
  /// hold exactly the elements `other` holds there. A listed chunk may still hold equal
  /// elements (a value set to what it was).
  ///
  /// ```swift
  /// var new = old
  /// new[id: 70]?.done = true
  /// new.chunksChanged(since: old)  // [1]
  /// ```
  package func chunksChanged(since other: Self) -> [Int] {
    // An array value is one reference to its buffer, so two chunks are the same storage
    // exactly when their bits are equal. Where an array is one word, the two chunk lists are
    // compared as lists of words, in code that is not generic: read through `_chunks`, the
    // loop (unspecialized in the recorder's writer) cost about 34 instructions a chunk, 5,300
    // a step for 10,000 todos (callgrind).
    if let mine = chunkWords, let theirs = other.chunkWords {
      return chunkIndices(of: mine, differingFrom: theirs)
    }
    return _chunks.withUnsafeBytes { mine -> [Int] in
      other._chunks.withUnsafeBytes { theirs -> [Int] in
        guard let mineBase = mine.baseAddress else { return [] }
        guard let theirBase = theirs.baseAddress, mineBase != theirBase else {
          return theirs.baseAddress == nil ? Array(_chunks.indices) : []
        }
        var changed: [Int] = []
        for index in _chunks.indices {
          if index >= other._chunks.count
            || !Self.sameChunk(mineBase, theirBase, at: index)
          {
            changed.append(index)
          }
        }
        return changed
      }
    }
  }

  /// The elements of chunk `chunk`, sharing its storage.
  package func chunk(_ chunk: Int) -> [Element] {
    // The word is the chunk's buffer: cast back, it is the chunk, retained as a copy is.
    if let words = chunkWords { return unsafeBitCast(words[chunk], to: [Element].self) }
    return _chunks[chunk]
  }

  /// Whether chunk `index` of two chunk lists (their bytes) is the same buffer: one word load
  /// each where an array is one word, as on every 64-bit platform Swift runs on, else a byte
  /// comparison. Inlinable for `==`, which is specialized where a state is compared.
  @inlinable @inline(__always)
  static func sameChunk(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, at index: Int)
    -> Bool
  {
    let stride = MemoryLayout<[Element]>.stride
    let offset = index * stride
    if stride == MemoryLayout<UInt>.size {
      return left.loadUnaligned(fromByteOffset: offset, as: UInt.self)
        == right.loadUnaligned(fromByteOffset: offset, as: UInt.self)
    }
    for byte in 0..<stride
    where left.load(fromByteOffset: offset + byte, as: UInt8.self)
      != right.load(fromByteOffset: offset + byte, as: UInt8.self)
    {
      return false
    }
    return true
  }
}

/// The positions of `mine` whose word differs from `theirs`' at the same position, and every
/// position past `theirs`' last (`chunksChanged` of two chunk lists read as words). Runs of
/// `block` words are compared with `memcmp` and only a run that differs is read word by word:
/// a step changes one chunk or a few, and a word at a time cost about 9 instructions a chunk.
private func chunkIndices(
  of mine: [UnsafeRawPointer], differingFrom theirs: [UnsafeRawPointer]
) -> [Int] {
  mine.withUnsafeBufferPointer { mine in
    theirs.withUnsafeBufferPointer { theirs in
      // The same list (or two empty ones): nothing changed.
      if mine.baseAddress == theirs.baseAddress, mine.count == theirs.count { return [] }
      let common = Swift.min(mine.count, theirs.count)
      var changed: [Int] = []
      if let mineBase = mine.baseAddress, let theirBase = theirs.baseAddress {
        let block = 16
        let wordSize = MemoryLayout<UnsafeRawPointer>.stride
        var start = 0
        while start < common {
          let end = Swift.min(start + block, common)
          if memcmp(mineBase + start, theirBase + start, (end - start) * wordSize) != 0 {
            for index in start..<end where mine[index] != theirs[index] { changed.append(index) }
          }
          start = end
        }
      }
      if mine.count > common { changed.append(contentsOf: common..<mine.count) }
      return changed
    }
  }
}
