import Foundation

/// `value` as JSON with sorted keys and unescaped slashes: how the trace stores its `meta`
/// tables, so that a recording is reproducible. `empty` stands for a value that cannot be
/// encoded (the callers' values are strings, booleans and arrays: it never is).
///
/// ```swift
/// sortedJSONText(["b": 1, "a": 2], empty: "{}")  // {"a":2,"b":1}
/// ```
func sortedJSONText<Value: Encodable>(_ value: Value, empty: String) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  let data = (try? encoder.encode(value)) ?? Data(empty.utf8)
  return String(decoding: data, as: UTF8.self)
}
