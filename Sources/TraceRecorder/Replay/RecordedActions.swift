#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import TraceKit

/// Each distinct recorded action parsed once: found again by a hash of its JSON bytes,
/// checked byte for byte. A trace repeats the same few actions (ticks, taps, increments), so
/// typed replay parses and decodes each of them once, not once per step.
///
/// ```swift
/// let actions = RecordedActions()
/// let (value, id) = try actions.action(json)  // parsed the first time, looked up after
/// ```
///
/// Bounded: past `capacity` distinct actions it starts again empty. Ids are never reused, so
/// a cache of decoded actions keyed by id stays right across that.
///
/// The table is its own (open addressing over a hash of the bytes read eight at a time,
/// `ByteHash.words`) rather than a `Dictionary`: it is asked at every step, and hashing the
/// bytes and then the hash again with the standard library's seeded hasher cost more than the
/// rest of the look-up. A collision only costs a probe; a hit is decided by the bytes.
@usableFromInline
final class RecordedActions {
  private struct Entry {
    let bytes: [UInt8]
    let hash: UInt64
    let value: TraceValue
    let id: Int
  }

  @usableFromInline static let capacity = 4_096
  /// Twice the capacity, a power of two: the table is at most half full.
  private static let slotCount = 8_192

  // One thread only, and used every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var entries: [Entry] = []
  /// Per slot, the index of an entry plus one; zero is an empty slot.
  @exclusivity(unchecked) private var slots = [Int32](repeating: 0, count: slotCount)
  @exclusivity(unchecked) private var nextID = 0

  /// The steps of a batch's lines, read with `paths` as the line cache (nil: the reader's).
  func steps(_ lines: [RecordedBatches.Line], paths: TraceReader.PathCache? = nil) throws
    -> [RecordedStep]
  {
    var batch: [RecordedStep] = []
    batch.reserveCapacity(lines.count)
    try append(lines[...], to: &batch, paths: paths)
    return batch
  }

  /// Appends the steps of `lines` to `steps`, in order; on a line that cannot be read it
  /// throws, with the steps before it appended.
  func append(
    _ lines: ArraySlice<RecordedBatches.Line>, to steps: inout [RecordedStep],
    paths: TraceReader.PathCache? = nil
  ) throws {
    // Each line read in place, field by field: copying the line out (even as the argument
    // of a call) retained its action path and its payload's chunk. Each step (the row's
    // entry and action path, the line's action, each distinct one decoded once, and its
    // dependency reads) is appended inside the line's read, through the non-generic
    // `forActionJSON`: the generic `withActionJSON` runs unspecialized from this module.
    for index in lines.indices {
      try lines[index].payload.forActionJSON(cachingIn: paths) { json, dependencies in
        let (action, id) = try action(json)
        let entry = lines[index].entry
        steps.append(
          RecordedStep(
            step: entry.step, origin: entry.origin, actionPath: lines[index].actionPath,
            stateHash: entry.stateHash, action: action, actionID: id,
            dependencies: dependencies))
      }
    }
  }

  /// The parsed action of `json`, and an id that names those bytes.
  func action(_ json: UnsafeRawBufferPointer) throws -> (value: TraceValue, id: Int) {
    let hash = ByteHash.words(json)
    let mask = Self.slotCount - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      let entry = entries[Int(slots[slot]) - 1]
      if entry.hash == hash, Self.equal(entry.bytes, json) { return (entry.value, entry.id) }
      slot = (slot + 1) & mask
    }
    let bytes = Array(json)
    let value = try TraceValue(json: bytes)
    if entries.count >= Self.capacity {
      entries.removeAll(keepingCapacity: true)
      for index in slots.indices { slots[index] = 0 }
      slot = Int(truncatingIfNeeded: hash) & mask
    }
    let entry = Entry(bytes: bytes, hash: hash, value: value, id: nextID)
    nextID += 1
    entries.append(entry)
    slots[slot] = Int32(entries.count)
    return (value, entry.id)
  }

  private static func equal(_ stored: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard stored.count == bytes.count else { return false }
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
    return stored.withUnsafeBytes { memcmp($0.baseAddress!, base, bytes.count) == 0 }
  }
}
