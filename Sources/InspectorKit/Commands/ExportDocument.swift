import TraceKit

/// The documented shape of `inspector export --format json` (also in docs/inspector.md).
enum ExportDocument {
  static let version = 1

  static let shape = """
    JSON SHAPE (version 1):
      {
        "format": "rewind-export", "version": 1,
        "trace": { what 'info --json' prints: formatVersion, rootReducer, stateType,
                   actionType, keyframeInterval, steps, effects, gaps, firstWallTime,
                   lastWallTime, fileSize, payload sizes, complete, extra },
        "range": { "from": N, "to": M },
        "tree": { "kind", "typeName", "statePath", "actionPrefix", "children": [...] } | null,
        "initialState": <the state after step N>,
        "steps": [ for steps N+1...M:
          { "step", "nanos", "wallTime", "origin": "user" | "effect:<UUID>",
            "actionPath", "changedPaths": [...], "stateHash": "<16 hex digits>",
            "reducerNanos", "action": <value>,
            "changes": [ { "op": "set" | "insert" | "remove", "path": "todos[id: 3].title",
                           "value": <value, absent for remove> } ] } ],
        "effects": [ effects started in N...M: { "id", "startedByStep", "cancelID", "file",
          "line", "startNanos", "endNanos", "outcome": "running" | "finished" | "cancelled"
          | "unfinished", "cancelReason", "cancelledByStep", "sentSteps": [...] } ]
      }
    A <value> is TraceKit's JSON form: objects and arrays as JSON; an enum case as
    {"$case": "name", <associated values>}; bytes as {"$bytes": "<base64>"}; a non-finite
    double as {"$double": "nan"}; a reflected value as {"$reflected": "Type", "value": ...}.
    Applying each step's "changes" in order to "initialState" gives the state after that step.
    """

  static func writeTree(_ node: ReducerTreeNode, into json: inout JSONOutput) {
    json.object { j in
      j.field("kind") { $0.string(node.kind) }
      j.field("typeName") { $0.string(node.typeName) }
      j.field("statePath") { j in j.optional(node.statePath) { $0.string($1) } }
      j.field("actionPrefix") { j in j.optional(node.actionPrefix) { $0.string($1) } }
      j.field("children") { j in
        j.array { j in
          for child in node.children { writeTree(child, into: &j) }
        }
      }
    }
  }
}
