import TraceKit

/// Says in words how a recorded value and the current Swift type disagree.
///
/// ```swift
/// ShapeDescription.fieldDifference(recorded: old, current: new)
/// // "field \"legacy\" is in the trace but not in the type (removed or renamed since recording)"
/// ```
enum ShapeDescription {
  /// The first field present on one side only, comparing objects level by level.
  static func fieldDifference(recorded: TraceValue, current: TraceValue) -> String? {
    fieldDifference(recorded, current, path: [])
  }

  private static func fieldDifference(
    _ recorded: TraceValue, _ current: TraceValue, path: [String]
  ) -> String? {
    switch (recorded, current) {
    case (.object(let old), .object(let new)):
      let newKeys = Set(new.map(\.key))
      let oldKeys = Set(old.map(\.key))
      if let removed = old.first(where: { !newKeys.contains($0.key) }) {
        return "field \"\(joined(path + [removed.key]))\" is in the trace but not in the type "
          + "(removed or renamed since recording)"
      }
      if let added = new.first(where: { !oldKeys.contains($0.key) }) {
        return "field \"\(joined(path + [added.key]))\" is in the type but not in the trace "
          + "(added since recording)"
      }
      for field in old {
        guard let counterpart = new.first(where: { $0.key == field.key }) else { continue }
        if let found = fieldDifference(field.value, counterpart.value, path: path + [field.key])
        {
          return found
        }
      }
      return nil
    case (.reflected(_, let old), .reflected(_, let new)):
      return fieldDifference(old, new, path: path)
    default:
      return nil
    }
  }

  /// A decoding error in the words of the shape change that most likely caused it.
  static func decodingFailure(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      let path = joined(context.codingPath.map(\.stringValue) + [key.stringValue])
      return "field \"\(path)\" is in the type but not in the trace (added since recording)"
    case .typeMismatch(_, let context) where context.debugDescription.contains("number of keys"):
      let path = joined(context.codingPath.map(\.stringValue))
      return "the recorded enum case at \"\(path.isEmpty ? "(root)" : path)\" is not a case "
        + "of the type (added, removed or renamed since recording)"
    case .typeMismatch(let type, let context):
      return "\"\(joined(context.codingPath.map(\.stringValue)))\" is no longer \(type): "
        + context.debugDescription
    case .valueNotFound(let type, let context):
      return "\"\(joined(context.codingPath.map(\.stringValue)))\" has no \(type) value: "
        + context.debugDescription
    case .dataCorrupted(let context):
      return "\"\(joined(context.codingPath.map(\.stringValue)))\": \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  private static func joined(_ components: [String]) -> String {
    components.joined(separator: ".")
  }
}
