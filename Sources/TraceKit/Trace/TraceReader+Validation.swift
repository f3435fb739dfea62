import Foundation

// A trace that arrives with a bug report is untrusted input. Every number the reader takes
// from it is range-checked where it is read, so arithmetic on it cannot overflow and a damaged
// value is reported as damage rather than shown as if it were true.

extension TraceReader {
  /// The largest step number a reader accepts: 2^48, nine years of recording at a million
  /// steps a second. Within it, step arithmetic (`step + 1`, the sum of every gap) cannot
  /// overflow an `Int`.
  ///
  /// ```swift
  /// print(TraceReader.maximumStep)  // 281474976710656
  /// ```
  public static let maximumStep = 1 << 48

  /// The largest count or byte size a reader accepts from the `meta` table (256 TiB).
  static let maximumCount = 1 << 48

  /// The deepest reducer tree a reader accepts. A real composition is a few dozen levels; a
  /// deeper one would only make the renderers recurse without end.
  public static let maximumTreeDepth = 128

  /// The trace format versions this reader reads.
  ///
  /// ```swift
  /// print(TraceReader.readableFormatVersions)  // [1, 2, 3]
  /// ```
  public static var readableFormatVersions: [Int] { TraceSchema.readableVersions }

  /// The columns the reader selects, by table: a file whose tables lack one is refused when it
  /// is opened, with the table and column named.
  static let requiredColumns: KeyValuePairs<String, [String]> = [
    "meta": ["key", "value"],
    "steps": [
      "step", "mono_ns", "wall", "origin", "action", "changed", "state_hash", "reducer_ns",
    ],
    "actions": ["id", "path"],
    "path_sets": ["id", "paths"],
    "origins": ["id", "effect_id"],
    "chunks": ["first_step", "last_step", "raw_size", "data"],
    "keyframes": ["step", "state_hash", "raw_size", "data"],
    "effects": [
      "id", "started_by_step", "cancel_id", "file", "line", "start_ns", "end_ns", "outcome",
      "cancel_reason", "cancelled_by_step",
    ],
    "effect_sends": ["effect_id", "step"],
    "tree": ["id", "json"],
    "gaps": ["after_step", "dropped"],
  ]

  static let stepRange = Int64(0)...Int64(maximumStep)
  static let nonNegative = Int64(0)...Int64.max
  static let anyInteger = Int64.min...Int64.max
  /// Uncompressed sizes of chunks and keyframes: a damaged header cannot make the reader
  /// allocate more than `TraceSchema.payloadLimit`.
  static let payloadSizes = Int64(0)...Int64(TraceSchema.payloadLimit)

  // MARK: Columns

  /// An INTEGER column holding a value within `range`. NULL, text, a real, a blob or a number
  /// outside the range is the error `damaged` makes of a reason naming the column.
  static func integer(
    _ statement: SQLiteStatement, _ column: Int32, _ name: String, in range: ClosedRange<Int64>,
    _ damaged: (String) -> TraceError
  ) throws(TraceError) -> Int64 {
    guard let value = statement.integer(at: column) else {
      throw damaged("\(name) is \(shown(statement, column)), not an integer")
    }
    guard range.contains(value) else {
      throw damaged("\(name) is \(value), outside \(range.lowerBound)…\(range.upperBound)")
    }
    return value
  }

  /// `integer`, with NULL read as nil.
  static func optionalInteger(
    _ statement: SQLiteStatement, _ column: Int32, _ name: String, in range: ClosedRange<Int64>,
    _ damaged: (String) -> TraceError
  ) throws(TraceError) -> Int64? {
    if statement.isNull(at: column) { return nil }
    return try integer(statement, column, name, in: range, damaged)
  }

  /// A step number column: an integer within `0…maximumStep`.
  static func step(
    _ statement: SQLiteStatement, _ column: Int32, _ name: String,
    _ damaged: (String) -> TraceError
  ) throws(TraceError) -> Int {
    Int(try integer(statement, column, name, in: stepRange, damaged))
  }

  /// A stored value as a message shows it: `NULL`, a real, a blob's size, or text in quotes,
  /// cut short (a hostile file can hold a megabyte where a number belongs).
  static func shown(_ statement: SQLiteStatement, _ column: Int32) -> String {
    if statement.isNull(at: column) { return "NULL" }
    if statement.isReal(at: column) { return "\(statement.double(at: column))" }
    if statement.isBlob(at: column) { return "a blob of \(statement.byteCount(at: column)) bytes" }
    return shown(statement.text(at: column))
  }

  /// Text from a trace as a message shows it: in quotes, at most 40 characters.
  static func shown(_ text: String) -> String {
    "'" + cut(text) + "'"
  }

  /// At most 40 characters of `text`, with `…` when it was longer.
  static func cut(_ text: String) -> String {
    text.count > 40 ? text.prefix(40) + "…" : text
  }

  // MARK: Opening

  /// The columns version 2 added: a chunk is stored in parts, each naming its chunk.
  static let columnsSinceVersion2: KeyValuePairs<String, [String]> = ["chunks": ["chunk"]]

  /// Refuses a file whose tables lack a column the reader selects (for its version).
  static func checkColumns(_ database: SQLiteConnection, version: Int, path: String)
    throws(TraceError)
  {
    let required = Array(requiredColumns) + (version >= 2 ? Array(columnsSinceVersion2) : [])
    for (table, columns) in required {
      var present: Set<String> = []
      do {
        let statement = try database.prepare("SELECT name FROM pragma_table_info(?)")
        defer { statement.reset() }
        try statement.bind(table, at: 1)
        while try statement.step() { present.insert(statement.text(at: 0)) }
      } catch {
        throw TraceError(error, file: path)
      }
      for column in columns where !present.contains(column) {
        throw TraceError(.missingColumn(table: table, column: column), file: path)
      }
    }
  }

  /// The version check `docs/trace-format.md` describes: `PRAGMA user_version` and
  /// `meta.format_version` both name a version this reader reads; returns it.
  @discardableResult
  static func checkVersion(userVersion: Int64, formatVersion text: String, path: String)
    throws(TraceError) -> Int
  {
    guard let version = Int(text), readableFormatVersions.contains(version) else {
      throw TraceError(.unsupportedVersion(cut(text)), file: path)
    }
    guard userVersion == Int64(version) else {
      throw TraceError(
        .corruptMetadata(
          "the header's user_version is \(userVersion), but format_version is \(version)"),
        file: path)
    }
    return version
  }

  /// A write-ahead log that SQLite could not open: when the trace has a `-wal` file but no
  /// `-shm` file, the cause is a directory SQLite cannot create the `-shm` file in.
  static func logError(path: String) -> TraceError? {
    let files = FileManager.default
    let log = path + "-wal"
    let sharedMemory = path + "-shm"
    let logSize = (try? files.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
    guard logSize > 0, !files.fileExists(atPath: sharedMemory) else { return nil }
    let name = { (file: String) in URL(fileURLWithPath: file).lastPathComponent }
    return TraceError(
      .logNeedsWritableDirectory(log: name(log), sharedMemory: name(sharedMemory)), file: path)
  }

  // MARK: Gaps

  /// Every gap, checked: numbers in range, gaps that do not overlap, and none that claims a
  /// recorded step as dropped or lies after the last step. Read in the same transaction as
  /// `lastStep`, so a writer appending meanwhile cannot make a sound trace look damaged.
  func checkedGaps(lastStep: Int) throws(TraceError) -> [(afterStep: Int, dropped: Int)] {
    var gaps: [(afterStep: Int, dropped: Int)] = []
    do {
      let statement = try database.prepare(
        "SELECT after_step, dropped FROM gaps ORDER BY after_step")
      defer { statement.reset() }
      while try statement.step() {
        let file = path
        let after = try Self.step(statement, 0, "after_step") { reason in
          TraceError(.corruptGap(reason), file: file)
        }
        let dropped = try Self.integer(statement, 1, "dropped", in: 1...Int64(Self.maximumStep)) {
          reason in TraceError(.corruptGap(reason), file: file, step: after)
        }
        gaps.append((after, Int(dropped)))
      }
    } catch let error as TraceError {
      throw error
    } catch let error as SQLiteError {
      throw TraceError(error, file: path)
    } catch {
      throw TraceError(.database("\(error)"), file: path)
    }
    var previousEnd = -1
    for gap in gaps {
      let end = gap.afterStep + gap.dropped
      func damaged(_ reason: String) -> TraceError {
        TraceError(.corruptGap(reason), file: path, step: gap.afterStep)
      }
      guard gap.afterStep <= lastStep else {
        throw damaged("it follows step \(gap.afterStep), after the last step \(lastStep)")
      }
      guard gap.afterStep >= previousEnd else {
        throw damaged("it overlaps the gap before it, which ends at step \(previousEnd)")
      }
      if let next = try nextStep(after: gap.afterStep), next <= end {
        throw damaged(
          "it says steps \(gap.afterStep + 1)…\(end) were dropped, but step \(next) is recorded")
      }
      previousEnd = end
    }
    return gaps
  }

  private func nextStep(after step: Int) throws(TraceError) -> Int? {
    do {
      let statement = try database.prepare("SELECT MIN(step) FROM steps WHERE step > ?")
      defer { statement.reset() }
      try statement.bind(step, at: 1)
      guard try statement.step(), !statement.isNull(at: 0) else { return nil }
      return Int(statement.int64(at: 0))
    } catch {
      throw TraceError(error, file: path, step: step)
    }
  }

  /// Throws unless the steps `first…last` (rows the index does not have) are the end of a
  /// recorded gap: then they were dropped by the recorder, else rows were deleted.
  func checkDropped(first: Int, last: Int) throws(TraceError) {
    if gapEnds == nil || gapEnds?[last] == nil {
      let gaps = try checkedGaps(lastStep: try lastStep())
      gapEnds = Dictionary(
        gaps.map { ($0.afterStep + $0.dropped, $0.afterStep) }, uniquingKeysWith: { a, _ in a })
    }
    guard let after = gapEnds?[last], after < first else {
      throw TraceError(.missingIndexRows(first: first, last: last), file: path, step: first)
    }
  }

  // MARK: The reducer tree

  /// Reads the tree's JSON: first its depth, so no parser or renderer recurses without end,
  /// then every node, each field named when it is wrong.
  static func decodeTree(_ json: [UInt8]) throws(TreeFailure) -> ReducerTreeNode {
    // A node is an object inside its parent's `children` array: two JSON levels per level.
    let limit = 2 * maximumTreeDepth + 1
    guard jsonDepth(json, limit: limit) <= limit else {
      throw TreeFailure(reason: "nested deeper than \(maximumTreeDepth) levels")
    }
    let value: TraceValue
    do {
      value = try TraceValue(json: json)
    } catch {
      throw TreeFailure(reason: error.description)
    }
    return try node(value, at: "the root")
  }

  struct TreeFailure: Error {
    var reason: String
  }

  private static func node(_ value: TraceValue, at place: String)
    throws(TreeFailure) -> ReducerTreeNode
  {
    guard case .object(let fields) = value else {
      throw TreeFailure(reason: "\(place) is not an object")
    }
    func text(_ key: String, required: Bool) throws(TreeFailure) -> String? {
      switch fields.first(where: { $0.key == key })?.value {
      case .string(let text)?: return text
      case nil, .null?:
        if required { throw TreeFailure(reason: "\(place) has no '\(key)'") }
        return nil
      default: throw TreeFailure(reason: "'\(key)' of \(place) is not a string")
      }
    }
    let kind = try text("kind", required: true) ?? ""
    var children: [ReducerTreeNode] = []
    switch fields.first(where: { $0.key == "children" })?.value {
    case .array(let elements)?:
      children.reserveCapacity(elements.count)
      for (index, element) in elements.enumerated() {
        children.append(try node(element, at: "child \(index) of \(shown(kind))"))
      }
    case nil: break
    default: throw TreeFailure(reason: "'children' of \(place) is not an array")
    }
    return ReducerTreeNode(
      kind: kind,
      typeName: try text("typeName", required: false) ?? "",
      statePath: try text("statePath", required: false),
      actionPrefix: try text("actionPrefix", required: false),
      children: children)
  }

  /// How deeply `json` nests arrays and objects, counted only up to `limit + 1`.
  static func jsonDepth(_ json: [UInt8], limit: Int) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in json {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
        if deepest > limit { return deepest }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return deepest
  }
}
