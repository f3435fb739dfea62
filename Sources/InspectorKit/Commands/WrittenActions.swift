import TraceKit

/// `export`'s table of the actions it wrote, by their JSON as the trace stores it: the same
/// few actions come back step after step, and parsing and writing them again was a sixth of
/// the work. Found without copying the stored bytes (a hash of them, then a comparison).
/// Bounded: actions carrying ids or text can all differ.
///
/// ```swift
/// var actions = WrittenActions()
/// actions.written(stored: raw)                 // nil the first time
/// actions.insert(stored: raw, written: json)
/// actions.written(stored: raw)                 // json
/// ```
struct WrittenActions {
  private var entries: [UInt64: [(stored: [UInt8], written: [UInt8])]] = [:]
  private var count = 0
  private let capacity = 4_096

  func written(stored: UnsafeRawBufferPointer) -> [UInt8]? {
    entries[ByteHash.fnv1a(stored)]?.first { $0.stored.elementsEqual(stored) }?.written
  }

  mutating func insert(stored: UnsafeRawBufferPointer, written: [UInt8]) {
    guard count < capacity else { return }
    entries[ByteHash.fnv1a(stored), default: []].append((Array(stored), written))
    count += 1
  }
}
