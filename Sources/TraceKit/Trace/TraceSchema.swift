/// The SQLite schema of a trace file, format version 3 (documented in docs/trace-format.md).
///
/// ```swift
/// print(TraceSchema.formatVersion)  // 3
/// ```
///
/// Readers also read versions 1 and 2. Version 2 wrote every payload line with its step
/// number; version 3 leaves it out of a line that follows the previous step's. Version 1's
/// chunks are one row each, and it keeps counters in `meta` that later versions derive from
/// the tables.
enum TraceSchema {
  static let formatVersion = 3

  /// The versions a reader reads.
  static let readableVersions = [1, 2, 3]

  /// `PRAGMA application_id`: "RWND" in ASCII, so `file` and a reader can tell a trace from
  /// any other SQLite database without reading a table.
  static let applicationID: Int32 = 0x5257_4E44

  /// The tables a reader requires.
  static let tables = [
    "meta", "steps", "actions", "path_sets", "origins", "chunks", "keyframes", "effects",
    "effect_sends", "tree", "gaps",
  ]

  /// Largest uncompressed chunk or keyframe a reader accepts (and a writer writes): a
  /// damaged header cannot make a reader allocate more.
  static let payloadLimit = 256 << 20

  static let createSQL = """
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = \(formatVersion);
    CREATE TABLE meta (
      key TEXT PRIMARY KEY NOT NULL,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE steps (
      step INTEGER PRIMARY KEY,
      mono_ns INTEGER NOT NULL,
      wall NOT NULL,
      origin INTEGER NOT NULL,
      action INTEGER NOT NULL,
      changed INTEGER NOT NULL,
      state_hash INTEGER NOT NULL,
      reducer_ns INTEGER NOT NULL
    );
    CREATE TABLE actions (
      id INTEGER PRIMARY KEY,
      path TEXT NOT NULL
    );
    CREATE TABLE path_sets (
      id INTEGER PRIMARY KEY,
      paths TEXT NOT NULL
    );
    CREATE TABLE origins (
      id INTEGER PRIMARY KEY CHECK (id >= 2),
      effect_id TEXT NOT NULL
    );
    CREATE TABLE chunks (
      first_step INTEGER PRIMARY KEY,
      chunk INTEGER NOT NULL,
      last_step INTEGER NOT NULL,
      step_count INTEGER NOT NULL,
      raw_size INTEGER NOT NULL,
      data BLOB NOT NULL
    );
    CREATE TABLE keyframes (
      step INTEGER PRIMARY KEY,
      state_hash INTEGER NOT NULL,
      raw_size INTEGER NOT NULL,
      data BLOB NOT NULL
    );
    CREATE TABLE effects (
      id TEXT PRIMARY KEY NOT NULL,
      started_by_step INTEGER NOT NULL,
      cancel_id TEXT,
      file TEXT,
      line INTEGER,
      start_ns INTEGER,
      end_ns INTEGER,
      outcome TEXT NOT NULL,
      cancel_reason TEXT,
      cancelled_by_step INTEGER,
      kind TEXT,
      parent_id TEXT,
      started_after_step INTEGER,
      ended_after_step INTEGER
    );
    CREATE INDEX effects_by_step ON effects (started_by_step);
    CREATE TABLE effect_sends (
      effect_id TEXT NOT NULL,
      step INTEGER NOT NULL,
      PRIMARY KEY (effect_id, step)
    ) WITHOUT ROWID;
    CREATE TABLE tree (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      json TEXT NOT NULL
    );
    CREATE TABLE gaps (
      after_step INTEGER PRIMARY KEY,
      dropped INTEGER NOT NULL
    );
    CREATE VIEW step_index AS
    SELECT s.step AS step,
      s.mono_ns AS mono_ns,
      CASE typeof(s.wall) WHEN 'integer'
        THEN (SELECT wall FROM steps WHERE step = 0) + (s.mono_ns + s.wall) / 1e9
        ELSE s.wall END AS wall_time,
      CASE WHEN s.origin = 0 THEN 'initial' WHEN s.origin = 1 THEN 'user'
        WHEN s.origin = -1 THEN 'observer' WHEN s.origin = -2 THEN 'inspector'
        WHEN s.origin <= -3 THEN 'send:' || (-s.origin - 3)
        ELSE (SELECT CASE WHEN effect_id GLOB '*:*' THEN effect_id ELSE 'effect:' || effect_id
          END FROM origins WHERE id = s.origin) END AS origin,
      (SELECT path FROM actions WHERE id = s.action) AS action_path,
      (SELECT paths FROM path_sets WHERE id = s.changed) AS changed_paths,
      s.state_hash AS state_hash,
      s.reducer_ns AS reducer_ns,
      (SELECT chunk FROM chunks WHERE first_step <= s.step ORDER BY first_step DESC LIMIT 1)
        AS chunk
    FROM steps AS s;
    """

  /// Keys of the `meta` table.
  enum Key {
    static let formatVersion = "format_version"
    static let complete = "complete"
    static let writer = "writer"
    static let createdAt = "created_at"
    static let rootReducer = "root_reducer"
    static let stateType = "state_type"
    static let actionType = "action_type"
    static let keyframeInterval = "keyframe_interval"
    static let extraPrefix = "extra."
    /// The recorder's `SwiftTypeTable` as JSON (format 2, additive).
    static let swiftTypes = "swift_types"
    /// The dependency keys the feature read, `DependencyKeyRecord`s as JSON (format 2).
    static let dependencyKeys = "dependency_keys"
    /// `flock` when the writer holds a lock on the file for its lifetime (how readers tell
    /// that it is gone); absent when it could not take one.
    static let writerLock = "writer_lock"
    // Totals written by `close()` (version 1 rewrote them at every commit), so `info` on a
    // closed trace needs no scan; a trace still being written has them derived.
    static let chunkCount = "chunk_count"
    static let keyframeCount = "keyframe_count"
    static let effectCount = "effect_count"
    static let payloadBytes = "payload_bytes"
    static let payloadRawBytes = "payload_raw_bytes"
  }
}
