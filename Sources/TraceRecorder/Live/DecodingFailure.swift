import TraceKit

/// Says in a line why a value sent by an inspector does not decode into the app's type.
///
/// ```swift
/// DecodingFailure.text(error, value: .enumCase("jump", []))
/// // "no case of Action is named 'jump'"
/// ```
enum DecodingFailure {
  static func text(_ error: any Error, value: TraceValue) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .typeMismatch(let type, let context) where context.underlyingError is TraceUnknownCase:
      let name = (context.underlyingError as? TraceUnknownCase)?.name
      return place(context.codingPath) + "no case of \(shortName(type))"
        + (name.map { " is named '\($0)'" } ?? "")
    case .typeMismatch(let type, let context) where context.debugDescription.contains("keys"):
      let name = caseName(at: context.codingPath, in: value).map { " is named '\($0)'" } ?? ""
      return place(context.codingPath) + "no case of \(shortName(type))\(name)"
    case .typeMismatch(let type, let context):
      return place(context.codingPath) + "expected \(shortName(type))"
    case .keyNotFound(let key, let context):
      return place(context.codingPath) + "the field '\(key.stringValue)' is missing"
    case .valueNotFound(let type, let context):
      return place(context.codingPath) + "expected \(shortName(type)), found nothing"
    case .dataCorrupted(let context):
      return place(context.codingPath) + context.debugDescription
    @unknown default:
      return "\(error)"
    }
  }

  private static func place(_ path: [any CodingKey]) -> String {
    path.isEmpty ? "" : "at " + path.map(\.stringValue).joined(separator: ".") + ": "
  }

  private static func shortName(_ type: Any.Type) -> String {
    String(describing: type)
  }

  /// The name of the enum case at `path` in `value`, when it is one.
  private static func caseName(at path: [any CodingKey], in value: TraceValue) -> String? {
    var current = value
    for key in path {
      switch current {
      case .object(let fields), .enumCase(_, let fields):
        guard let field = fields.first(where: { $0.key == key.stringValue }) else { return nil }
        current = field.value
      case .array(let elements):
        guard let index = key.intValue, elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    if case .enumCase(let name, _) = current { return name }
    return nil
  }
}
