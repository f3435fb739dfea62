import TraceKit

/// Each distinct recorded action parsed once: found again by the hash of its JSON bytes,
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
@usableFromInline
final class RecordedActions {
  private struct Entry {
    let bytes: [UInt8]
    let value: TraceValue
    let id: Int
  }

  @usableFromInline static let capacity = 4_096

  // One thread only, and used every step: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var entries: [Int: [Entry]] = [:]
  @exclusivity(unchecked) private var count = 0
  @exclusivity(unchecked) private var nextID = 0

  /// The parsed action of `json`, and an id that names those bytes.
  func action(_ json: UnsafeRawBufferPointer) throws -> (value: TraceValue, id: Int) {
    var hasher = Hasher()
    hasher.combine(bytes: json)
    let hash = hasher.finalize()
    if let found = entries[hash]?.first(where: { $0.bytes.elementsEqual(json) }) {
      return (found.value, found.id)
    }
    let bytes = Array(json)
    let value = try TraceValue(json: bytes)
    if count >= Self.capacity {
      entries.removeAll(keepingCapacity: true)
      count = 0
    }
    let entry = Entry(bytes: bytes, value: value, id: nextID)
    nextID += 1
    count += 1
    entries[hash, default: []].append(entry)
    return (value, entry.id)
  }
}
