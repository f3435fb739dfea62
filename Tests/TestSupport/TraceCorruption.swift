import Foundation

/// Seeded damage to a trace at the level of its rows, made through SQLite the way a person with
/// `sqlite3` could make it: NULLs and text where integers belong, huge and negative integers,
/// steps renumbered, duplicated or out of order, index rows, keyframes and chunks deleted,
/// chunk ranges that lie, payloads that are valid LZ4 frames around bad JSON Lines, a megabyte
/// action path, a reducer tree nested deeper than any reader accepts, metadata and schema
/// edits. Byte-level damage rarely gets past SQLite's own checks; these edits do.
///
/// A variant is its seed: the same seed on the same base trace makes the same edits, and
/// `apply` says what they were, so a failure can be reproduced by hand.
///
/// ```swift
/// let edits = try TraceCorruption(seed: 42).apply(to: copy)
/// // ["steps: step 5 mono_ns = NULL", "chunk 0: line 3 duplicated"]
/// ```
package struct TraceCorruption {
  package let seed: UInt64

  package init(seed: UInt64) {
    self.seed = seed
  }

  /// Makes one to three edits to the trace at `path` (a copy: it is changed in place) and
  /// returns a line describing each. An edit SQLite itself refuses is described as refused.
  package func apply(to path: String) throws -> [String] {
    let editor = try TraceEditor(path: path)
    defer { editor.close() }
    var context = Context(editor: editor, random: SplitMix(seed: seed))
    try context.load()
    var edits: [String] = []
    for _ in 0...context.int(3) {
      let mutation = context.pick(Self.mutations)
      do {
        edits.append(try mutation(&context))
      } catch {
        edits.append("refused: \(error)")
      }
    }
    return edits
  }

  /// What an edit needs: the editor, the seeded generator and the rows there are to edit.
  struct Context {
    let editor: TraceEditor
    var random: SplitMix
    var steps: [Int64] = []
    var keyframes: [Int64] = []
    var chunks: [Int64] = []
    var nullsAllowed = false

    mutating func load() throws {
      steps = try editor.integers("SELECT step FROM steps ORDER BY step")
      keyframes = try editor.integers("SELECT step FROM keyframes ORDER BY step")
      chunks = try editor.integers("SELECT first_step FROM chunks ORDER BY first_step")
    }

    mutating func int(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[int(choices.count)] }

    mutating func step() -> Int64 { steps.isEmpty ? 0 : pick(steps) }
    mutating func keyframe() -> Int64 { keyframes.isEmpty ? 0 : pick(keyframes) }
    mutating func chunk() -> Int64 { chunks.isEmpty ? 0 : pick(chunks) }

    /// A value no column of a trace should hold, as SQL; NULL lifts the NOT NULL constraints.
    mutating func hostileValue(integersOnly: Bool = false) throws -> String {
      let integers = [
        "-1", "0", "1", "9223372036854775807", "-9223372036854775808", "281474976710657",
        "4294967296", "-281474976710656",
      ]
      let others = ["NULL", "'x'", "''", "1.5", "X'00FF'", "'9223372036854775808'", "1e300"]
      let value = integersOnly ? pick(integers) : pick(integers + others)
      if value == "NULL", !nullsAllowed {
        try editor.allowNulls()
        nullsAllowed = true
      }
      return value
    }

    mutating func execute(_ sql: String) throws -> String {
      try editor.execute(sql)
      return sql
    }
  }

  typealias Mutation = @Sendable (inout Context) throws -> String

  // MARK: The edits

  static let mutations: [Mutation] = [
    indexColumn, indexColumn, indexColumn, renumberStep, deleteRows, deleteRows, chunkColumn,
    keyframeColumn, chunkLines, chunkLines, chunkLines, chunkBytes, keyframePayload,
    metaValue, header, bigText, deepTree, treeJSON, effectColumn, gapRow, gapRow,
    internedRow, schema,
  ]

  static func indexColumn(_ c: inout Context) throws -> String {
    let column = c.pick([
      "mono_ns", "wall", "origin", "action", "changed", "state_hash", "reducer_ns",
    ])
    return try c.execute(
      "UPDATE steps SET \(column) = \(try c.hostileValue()) WHERE step = \(c.step())")
  }

  static func renumberStep(_ c: inout Context) throws -> String {
    let from = c.step()
    let to: String
    switch c.int(4) {
    case 0: to = try c.hostileValue(integersOnly: true)
    case 1: to = "\(from + 1 + Int64(c.int(3)))"
    case 2: to = "\(max(0, from - 1 - Int64(c.int(3))))"
    default: to = "\(from + 100_000)"
    }
    // A clash with an existing step is refused by SQLite; the chunk line keeps its number.
    var edits = try c.execute("UPDATE steps SET step = \(to) WHERE step = \(from)")
    if c.int(2) == 0 {
      try c.editor.editChunkLines(firstStep: Int(c.chunk())) { lines in
        lines = lines.map {
          $0.replacingOccurrences(of: "{\"step\":\(from),", with: "{\"step\":\(to),")
        }
      }
      edits += "; its payload line too"
    }
    return edits
  }

  static func deleteRows(_ c: inout Context) throws -> String {
    switch c.int(10) {
    case 0, 1, 2: return try c.execute("DELETE FROM steps WHERE step = \(c.step())")
    case 3: return try c.execute("DELETE FROM keyframes WHERE step = \(c.keyframe())")
    case 4: return try c.execute("DELETE FROM chunks WHERE first_step = \(c.chunk())")
    case 5: return try c.execute("DELETE FROM actions WHERE id = \(c.int(6))")
    case 6: return try c.execute("DELETE FROM path_sets WHERE id = \(c.int(6))")
    case 7: return try c.execute("DELETE FROM origins")
    case 8: return try c.execute("DELETE FROM effects WHERE rowid = \(1 + c.int(3))")
    default:
      let key = c.pick([
        "format_version", "keyframe_interval", "root_reducer", "state_type", "complete",
        "effect_count", "payload_bytes",
      ])
      return try c.execute("DELETE FROM meta WHERE key = '\(key)'")
    }
  }

  static func chunkColumn(_ c: inout Context) throws -> String {
    let column = c.pick(["first_step", "last_step", "step_count", "raw_size", "data"])
    let first = c.chunk()
    let value: String
    switch (column, c.int(3)) {
    case ("last_step", 0): value = "first_step - 1"
    case ("last_step", 1): value = "last_step - \(1 + c.int(4))"
    case ("raw_size", 0): value = "raw_size + \(c.pick([-1, 1, 1000]))"
    case ("data", 0): value = "substr(data, 1, length(data) / 2)"
    case ("data", 1): value = "X''"
    default:
      value = try c.hostileValue(integersOnly: column == "first_step")
    }
    return try c.execute("UPDATE chunks SET \(column) = \(value) WHERE first_step = \(first)")
  }

  static func keyframeColumn(_ c: inout Context) throws -> String {
    let column = c.pick(["step", "state_hash", "raw_size", "data"])
    let value =
      column == "data" && c.int(2) == 0
      ? "substr(data, 1, 7)" : try c.hostileValue(integersOnly: column == "step")
    return try c.execute(
      "UPDATE keyframes SET \(column) = \(value) WHERE step = \(c.keyframe())")
  }

  /// Valid LZ4 frames around JSON Lines that lie: steps out of order, duplicated or missing,
  /// lines cut or garbled, actions and changes that are not what a reader expects.
  static func chunkLines(_ c: inout Context) throws -> String {
    let first = Int(c.chunk())
    var description = ""
    var random = c.random
    try c.editor.editChunkLines(firstStep: first) { lines in
      guard !lines.isEmpty else { return }
      let index = Int(random.next() % UInt64(lines.count))
      let other = Int(random.next() % UInt64(lines.count))
      let line = lines[index]
      let step = String(line.prefix { $0 != "," })
      switch random.next() % 16 {
      case 0:
        lines.remove(at: index)
        description = "line \(index) removed"
      case 1:
        lines.insert(line, at: index)
        description = "line \(index) duplicated"
      case 2:
        lines.swapAt(index, other)
        description = "lines \(index) and \(other) swapped"
      case 3:
        lines.reverse()
        description = "lines reversed"
      case 4:
        let cut = Int(random.next() % UInt64(max(1, line.count)))
        lines[index] = String(line.prefix(cut))
        description = "line \(index) cut after \(cut) characters"
      case 5:
        lines[index] =
          step + #","action":"# + String(repeating: "[", count: 600)
          + String(repeating: "]", count: 600) + #","changes":[]}"#
        description = "line \(index): an action nested 600 deep"
      case 6:
        lines[index] = step + #","action":1e999999,"changes":[]}"#
        description = "line \(index): an action of 1e999999"
      case 7:
        lines[index] = step + #","action":null,"changes":[{"op":"frob","path":"count"}]}"#
        description = "line \(index): an unknown change"
      case 8:
        let path = ["todos[999999999]", "nope.deeper[3]", "todos[id: \"x\"].title", ".", "[-1]"][
          Int(random.next() % 5)]
        let op = ["set", "insert", "remove"][Int(random.next() % 3)]
        lines[index] =
          step + #","action":null,"changes":[{"op":""# + op + #"","path":"#
          + "\"\(path.replacingOccurrences(of: "\"", with: "\\\""))\",\"value\":1}]}"
        description = "line \(index): \(op) at \(path)"
      case 9:
        let megabyte = String(repeating: "a", count: 1 << 20)
        lines[index] = step + #","action":""# + megabyte + #"","changes":[]}"#
        description = "line \(index): a megabyte action"
      case 10:
        lines[index] = "{\"step\":" + String(Int64.max) + "," + line.drop { $0 != "," }.dropFirst()
        description = "line \(index) renumbered to Int64.max"
      case 11:
        lines[index] = "{\"step\":-" + line.dropFirst(8)
        description = "line \(index) given a negative step"
      case 12:
        lines.append("garbage")
        description = "a garbage line appended"
      case 13:
        lines[index] = line.replacingOccurrences(of: "\"changes\":", with: "\"changes\":[[[")
        description = "line \(index): changes unbalanced"
      case 14:
        lines[index] = line.replacingOccurrences(of: "\"step\":", with: "\"step\" :")
        description = "line \(index): a space in its prefix"
      default:
        lines[index] = String(decoding: [0xFF, 0xFE, 0x80], as: UTF8.self) + line
        description = "line \(index): invalid UTF-8 before it"
      }
    }
    c.random = random
    return "chunk \(first): \(description)"
  }

  /// The chunk's bytes edited below the line level, or its `raw_size` made to lie.
  static func chunkBytes(_ c: inout Context) throws -> String {
    let first = Int(c.chunk())
    var bytes = try c.editor.chunkBytes(firstStep: first)
    switch c.int(4) {
    case 0:
      try c.editor.replaceChunk(firstStep: first, with: bytes, rawSize: bytes.count + 1)
      return "chunk \(first): raw_size one more than its content"
    case 1:
      if !bytes.isEmpty { bytes.removeLast() }
      try c.editor.replaceChunk(firstStep: first, with: bytes)
      return "chunk \(first): no newline after its last line"
    case 2:
      try c.editor.replaceChunk(firstStep: first, with: [])
      return "chunk \(first): empty"
    default:
      for _ in 0..<3 where !bytes.isEmpty {
        bytes[c.int(bytes.count)] = UInt8(truncatingIfNeeded: c.random.next())
      }
      try c.editor.replaceChunk(firstStep: first, with: bytes)
      return "chunk \(first): three bytes changed inside a valid frame"
    }
  }

  static func keyframePayload(_ c: inout Context) throws -> String {
    let step = Int(c.keyframe())
    let payloads: [(String, String)] = [
      ("not JSON", "{\"count\":\n"),
      ("another state", "{\"count\":424242}\n"),
      ("no newline", "{\"count\":1}"),
      (
        "nested 600 deep",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
          + "\n"
      ),
      ("a megabyte string", "\"" + String(repeating: "s", count: 1 << 20) + "\"\n"),
      ("an enum without its case", "{\"$case\":1}\n"),
    ]
    let (name, text) = c.pick(payloads)
    try c.editor.replaceKeyframe(step: step, with: Array(text.utf8))
    return "keyframe \(step): \(name)"
  }

  static func metaValue(_ c: inout Context) throws -> String {
    let key = c.pick([
      "format_version", "keyframe_interval", "complete", "effect_count", "payload_bytes",
      "payload_raw_bytes", "chunk_count", "keyframe_count", "root_reducer", "extra.scenario",
    ])
    let value = c.pick([
      "'0'", "'-1'", "'9223372036854775807'", "'x'", "''", "'2'", "'1.5'", "' 1'",
      "'" + String(repeating: "9", count: 40) + "'", "'\u{1B}[31mred'",
    ])
    return try c.execute("UPDATE meta SET value = \(value) WHERE key = '\(key)'")
  }

  static func header(_ c: inout Context) throws -> String {
    switch c.int(3) {
    case 0: return try c.execute("PRAGMA user_version = \(c.pick(["0", "2", "-1", "99"]))")
    case 1: return try c.execute("PRAGMA application_id = \(c.pick(["0", "1", "-1"]))")
    default:
      return try c.execute("INSERT OR REPLACE INTO meta VALUES ('format_version', '2')")
    }
  }

  /// A megabyte where a short name belongs (an action path, a cancel id), and 64 KiB in the
  /// other names (each megabyte costs every command that prints it).
  static func bigText(_ c: inout Context) throws -> String {
    let (sql, name): (String, String) = c.pick([
      ("UPDATE actions SET path = ? WHERE id = (SELECT MIN(id) FROM actions)", "action path"),
      ("UPDATE effects SET cancel_id = ?", "cancel id"),
      ("UPDATE effects SET file = ?", "file name"),
      ("UPDATE meta SET value = ? WHERE key = 'state_type'", "state type"),
      ("INSERT OR REPLACE INTO meta VALUES ('extra.big', ?)", "metadata value"),
      ("UPDATE path_sets SET paths = '[\"' || ? || '\"]'", "changed path"),
    ])
    let megabyte = name == "action path" || name == "cancel id"
    try c.editor.run(sql, [String(repeating: "a.", count: megabyte ? 1 << 19 : 1 << 15)])
    return (megabyte ? "a megabyte " : "64 KiB of ") + name
  }

  static func deepTree(_ c: inout Context) throws -> String {
    let depth = c.pick([129, 257, 300, 5_000])
    var json = #"{"kind":"Reduce","typeName":"Leaf","children":[]}"#
    for _ in 0..<depth { json = #"{"kind":"Scope","typeName":"T","children":["# + json + "]}" }
    try c.editor.run("UPDATE tree SET json = ?", [json])
    return "a reducer tree \(depth) levels deep"
  }

  static func treeJSON(_ c: inout Context) throws -> String {
    let json = c.pick([
      "not json", "[]", #"{"kind":1}"#, #"{"kind":"A","children":{}}"#,
      #"{"kind":"A","children":[1,2]}"#, #"{"typeName":"no kind"}"#,
      #"{"kind":"A","statePath":"\u001b[2J","children":[]}"#,
    ])
    try c.editor.run("UPDATE tree SET json = ?", [json])
    return "tree json \(json)"
  }

  static func effectColumn(_ c: inout Context) throws -> String {
    if c.int(4) == 0 {
      let value = try c.hostileValue(integersOnly: true)
      return try c.execute(
        "UPDATE effect_sends SET step = \(value) WHERE step = (SELECT MIN(step) FROM effect_sends)")
    }
    let column = c.pick([
      "id", "started_by_step", "line", "start_ns", "end_ns", "outcome", "cancelled_by_step",
    ])
    let value = column == "outcome" ? c.pick(["'exploded'", "NULL", "''"]) : try c.hostileValue()
    if value == "NULL", !c.nullsAllowed {
      try c.editor.allowNulls()
      c.nullsAllowed = true
    }
    return try c.execute("UPDATE effects SET \(column) = \(value) WHERE rowid = \(1 + c.int(3))")
  }

  static func gapRow(_ c: inout Context) throws -> String {
    let after = c.pick([
      "\(c.step())", "-1", "9223372036854775807", "\(c.steps.last ?? 0)", "281474976710656",
    ])
    let dropped = try c.hostileValue()
    return try c.execute("INSERT OR REPLACE INTO gaps VALUES (\(after), \(dropped))")
  }

  /// The small tables the index refers to by id.
  static func internedRow(_ c: inout Context) throws -> String {
    switch c.int(4) {
    case 0:
      return try c.execute(
        "UPDATE path_sets SET paths = \(c.pick(["'[1,2]'", "'{}'", "'['", "'[\"\"]'"]))")
    case 1:
      return try c.execute("UPDATE origins SET effect_id = \(c.pick(["'x'", "''", "'1'"]))")
    case 2:
      return try c.execute(
        "UPDATE actions SET path = \(c.pick(["''", "'\u{1B}[2J'", "'a\u{200B}b'"]))")
    default:
      let nested = String(repeating: "[", count: 700) + String(repeating: "]", count: 700)
      try c.editor.run("UPDATE path_sets SET paths = ?", [nested])
      return "path sets nested 700 deep"
    }
  }

  static func schema(_ c: inout Context) throws -> String {
    try c.execute(
      c.pick([
        "ALTER TABLE steps RENAME COLUMN wall TO wall_time",
        "ALTER TABLE chunks RENAME COLUMN raw_size TO size",
        "DROP TABLE effect_sends",
        "DROP VIEW step_index; DROP TABLE gaps",
        "ALTER TABLE effects RENAME COLUMN outcome TO result",
      ]))
  }
}
