/// The SQLite schema of a trace file, format version 1 (documented in docs/trace-format.md).
///
/// ```swift
/// print(TraceSchema.formatVersion)  // 1
/// ```
enum TraceSchema {
  static let formatVersion = 1

  /// `PRAGMA application_id`: "RWND" in ASCII, so `file` and a reader can tell a trace from
  /// any other SQLite database without reading a table.
  static let applicationID: Int32 = 0x5257_4E44

  /// The tables a reader requires.
  static let tables = [
    "meta", "steps", "chunks", "keyframes", "effects", "effect_sends", "tree", "gaps",
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
      wall_time REAL NOT NULL,
      origin TEXT NOT NULL,
      action_path TEXT NOT NULL,
      changed_paths TEXT NOT NULL,
      state_hash INTEGER NOT NULL,
      reducer_ns INTEGER NOT NULL,
      chunk INTEGER NOT NULL
    );
    CREATE TABLE chunks (
      id INTEGER PRIMARY KEY,
      first_step INTEGER NOT NULL,
      last_step INTEGER NOT NULL,
      step_count INTEGER NOT NULL,
      raw_size INTEGER NOT NULL,
      data BLOB NOT NULL
    );
    CREATE INDEX chunks_by_last_step ON chunks (last_step);
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
      cancelled_by_step INTEGER
    );
    CREATE INDEX effects_by_step ON effects (started_by_step);
    CREATE TABLE effect_sends (
      effect_id TEXT NOT NULL,
      step INTEGER NOT NULL,
      PRIMARY KEY (effect_id, step)
    ) WITHOUT ROWID;
    CREATE INDEX effect_sends_by_step ON effect_sends (step);
    CREATE TABLE tree (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      json TEXT NOT NULL
    );
    CREATE TABLE gaps (
      after_step INTEGER PRIMARY KEY,
      dropped INTEGER NOT NULL
    );
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
    static let lastStep = "last_step"
    static let chunkCount = "chunk_count"
    static let keyframeCount = "keyframe_count"
    static let effectCount = "effect_count"
    static let payloadBytes = "payload_bytes"
    static let payloadRawBytes = "payload_raw_bytes"
  }
}
