import TraceValues

/// The changed-path sets of recent steps, found by their paths' bits: each set's
/// `changed_paths` texts and, once the writer gave it one, its `path_sets` id.
///
/// A composed app's steps turn between a few sets (a row's toggle, the search's query, the
/// counter), rarely the same as the step before; naming a set again cost each path a look-up,
/// a new array of texts and a hash of the texts for the id. The paths of a step are arrays of
/// components the encoder keeps from step to step, so a set met again has the same bits. Same
/// bits are the same paths: an entry holds its paths, so the storage their bits name is theirs
/// and cannot change. A set whose bits differ (new arrays of the same components) only misses.
/// A set replaces the one in its slot: the slots bound the memory kept.
///
/// ```swift
/// var sets = RecentPathSets()
/// let slot = RecentPathSets.slot(of: paths)
/// sets.keep(paths, texts: ["count"], at: slot)
/// sets.noteID(1, of: texts, at: slot)
/// sets.entry(of: paths, at: slot)?.id  // 1
/// ```
struct RecentPathSets {
  struct Entry {
    var paths: [TracePath]
    var texts: [String]
    var id: Int?
  }

  private var entries = [Entry?](repeating: nil, count: slotCount)
  private static let slotCount = 64

  /// The slot of `paths`, from their bits (a path is one reference to its components).
  static func slot(of paths: [TracePath]) -> Int {
    var mixer = ByteHash.Mixer()
    mixer.mixBits(of: paths)
    return Int(truncatingIfNeeded: mixer.finish()) & (slotCount - 1)
  }

  /// The entry at `slot` when it holds `paths` (by their bits).
  func entry(of paths: [TracePath], at slot: Int) -> Entry? {
    guard let entry = entries[slot], StringListBitsKey.sameBits(entry.paths, paths) else {
      return nil
    }
    return entry
  }

  /// Keeps `paths` with their texts at `slot` (`slot(of: paths)`), without an id yet.
  mutating func keep(_ paths: [TracePath], texts: [String], at slot: Int) {
    entries[slot] = Entry(paths: paths, texts: texts, id: nil)
  }

  /// Gives the set at `slot` its id, when its texts are `texts` (by their bits: the same
  /// strings, so the same set).
  mutating func noteID(_ id: Int, of texts: [String], at slot: Int) {
    guard entries[slot]?.id == nil, let entry = entries[slot],
      StringListBitsKey.sameBits(entry.texts, texts)
    else { return }
    entries[slot]?.id = id
  }
}
