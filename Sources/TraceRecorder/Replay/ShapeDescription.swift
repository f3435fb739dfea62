import TraceKit

/// Says in words how a recorded value and the current Swift type disagree, with paths written
/// as Swift reads them (`rows[0].title`, `.search(_:)`, `.move(toOffset:)`), never coding
/// keys such as `_0`.
///
/// ```swift
/// ShapeDescription.difference(recorded: old, current: new)
/// // "field `legacy` is in the trace but not in the type (removed or renamed since recording)"
/// ```
@usableFromInline
enum ShapeDescription {
  /// How `T` fails to hold `recorded` as it was recorded: the decoding error in words, or the
  /// first difference between `recorded` and its decoding encoded again (a field the type
  /// added with a default, a number whose type changed); nil when it round-trips exactly.
  @usableFromInline
  static func roundTripDifference<T: Codable>(_ type: T.Type, recorded: TraceValue) -> String? {
    let decoded: T
    do {
      decoded = try TraceValueDecoder().decode(T.self, from: recorded)
    } catch {
      return decodingFailure(error, recorded: recorded)
    }
    guard let encoded = try? TraceValueEncoder().encode(decoded) else { return nil }
    return difference(recorded: recorded, current: encoded)
  }

  /// The first place where `current` is not shaped as `recorded`: fields on one side only
  /// (both named when a level has both: a rename), a value of another kind (an integer that
  /// is now a `Double`), or, with `valuesMatter`, a value that changed.
  @usableFromInline
  static func difference(recorded: TraceValue, current: TraceValue, valuesMatter: Bool = true)
    -> String?
  {
    Walk(valuesMatter: valuesMatter).difference(recorded, current, at: SwiftPath())
  }

  private struct Walk {
    let valuesMatter: Bool

  func difference(_ recorded: TraceValue, _ current: TraceValue, at path: SwiftPath)
    -> String?
  {
    switch (recorded, current) {
    case (.object(let old), .object(let new)):
      return fields(old, new, at: path) { path.field($0) }
    case (.enumCase(let oldName, let old), .enumCase(let newName, let new)):
      guard oldName == newName else {
        guard valuesMatter else { return nil }
        return "\(path.text(or: "the value")) is .\(oldName) in the trace and becomes "
          + ".\(newName) in the type"
      }
      return fields(old, new, at: path) { path.enumCase(oldName, label: $0) }
    case (.array(let old), .array(let new)):
      for (index, (oldElement, newElement)) in zip(old, new).enumerated() {
        if let found = difference(oldElement, newElement, at: path.index(index)) { return found }
      }
      guard old.count == new.count || !valuesMatter else {
        return "\(path.text(or: "the value")) has \(old.count) elements in the trace and "
          + "\(new.count) in the type"
      }
      return nil
    case (.reflected(_, let old), .reflected(_, let new)):
      return difference(old, new, at: path)
    default:
      guard recorded != current else { return nil }
      let oldKind = recorded.kindName
      let newKind = current.kindName
      if oldKind != newKind, recorded != .null, current != .null {
        return "\(path.text(or: "the value")) was \(oldKind) (\(recorded)) in the trace and is "
          + "\(newKind) (\(current)) in the type (its type changed since recording)"
      }
      guard valuesMatter else { return nil }
      return "\(path.text(or: "the value")) is \(recorded) in the trace and becomes \(current) "
        + "in the type (a custom Codable, or a type changed since recording)"
    }
  }

  /// The keys on one side only, then the first difference below a key both have.
  func fields(
    _ old: [TraceField], _ new: [TraceField], at path: SwiftPath,
    child: (String) -> SwiftPath
  ) -> String? {
    let oldKeys = Set(old.map(\.key))
    let newKeys = Set(new.map(\.key))
    let removed = old.filter { !newKeys.contains($0.key) }.map { child($0.key).text }
    let added = new.filter { !oldKeys.contains($0.key) }.map { child($0.key).text }
    switch (removed.first, added.first) {
    case (let removed?, let added?):
      return "field `\(removed)` is in the trace but not in the type, and field `\(added)` is "
        + "in the type but not in the trace (renamed or replaced since recording)"
    case (let removed?, nil):
      return "field `\(removed)` is in the trace but not in the type (removed or renamed since "
        + "recording)"
    case (nil, let added?):
      return "field `\(added)` is in the type but not in the trace (added since recording)"
    case (nil, nil):
      break
    }
    for field in old {
      guard let counterpart = new.first(where: { $0.key == field.key }) else { continue }
      if let found = difference(field.value, counterpart.value, at: child(field.key)) {
        return found
      }
    }
    return nil
  }
  }

  /// A decoding error in the words of the shape change that most likely caused it.
  @usableFromInline
  static func decodingFailure(_ error: any Error, recorded: TraceValue) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      let path = SwiftPath(codingPath: context.codingPath + [key], in: recorded)
      return "field `\(path.text)` is in the type but not in the trace (added since recording)"
    case .typeMismatch(_, let context):
      if let unknown = context.underlyingError as? TraceUnknownCase {
        return unknownCase(unknown, context: context, recorded: recorded)
      }
      let path = SwiftPath(codingPath: context.codingPath, in: recorded)
      if context.debugDescription.contains("number of keys") {
        return "the recorded enum case at \(path.text(or: "the top")) is not a case of the type "
          + "(added, removed or renamed since recording)"
      }
      return "\(path.text(or: "the value")) no longer fits: \(context.debugDescription) "
        + "(its type changed since recording)"
    case .valueNotFound(let type, let context):
      let path = SwiftPath(codingPath: context.codingPath, in: recorded)
      return "\(path.text(or: "the value")) is null in the trace; the type wants \(type)"
    case .dataCorrupted(let context):
      let path = SwiftPath(codingPath: context.codingPath, in: recorded)
      return "\(path.text(or: "the value")): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  private static func unknownCase(
    _ unknown: TraceUnknownCase, context: DecodingError.Context, recorded: TraceValue
  ) -> String {
    let path = SwiftPath(codingPath: context.codingPath, in: recorded)
    var text = "the trace has the case .\(unknown.name)"
    if path.isRoot {
      text += ", which the type does not have"
    } else {
      text += " in `\(path.text)`, which \(unknown.typeName ?? "its type") does not have"
    }
    if let cases = unknown.cases {
      text += " (its cases: " + cases.map { ".\($0)" }.joined(separator: ", ") + ")"
    }
    return text + ": renamed or removed since recording"
  }
}

/// A path into a value as Swift code spells it: `rows[0].title`, `.search(_:)`,
/// `.move(toOffset:)`.
///
/// ```swift
/// SwiftPath().field("rows").index(0).field("title").text  // rows[0].title
/// SwiftPath().enumCase("search", label: "_0").text         // .search(_:)
/// ```
struct SwiftPath {
  private(set) var text = ""

  var isRoot: Bool { text.isEmpty }

  /// The path, or `placeholder` for the root.
  func text(or placeholder: String) -> String {
    isRoot ? placeholder : "`\(text)`"
  }

  func field(_ name: String) -> SwiftPath {
    var path = self
    path.text += (text.isEmpty ? "" : ".") + name
    return path
  }

  func index(_ index: Int) -> SwiftPath {
    var path = self
    path.text += "[\(index)]"
    return path
  }

  /// An associated value of a case: `_0` (unlabelled) reads `(_:)`, `label` reads `(label:)`.
  func enumCase(_ name: String, label: String) -> SwiftPath {
    var path = self
    let isPosition = label.hasPrefix("_") && Int(label.dropFirst()) != nil
    path.text += ".\(name)(\(isPosition ? "_" : label):)"
    return path
  }

  init() {}

  /// The path of a coding path, read against the recorded value it points into: a key that
  /// names the case of an enum value and the label after it read as one `.case(label:)`.
  init(codingPath: [any CodingKey], in root: TraceValue) {
    var path = SwiftPath()
    var value: TraceValue? = root
    var keys = codingPath[...]
    while let key = keys.first {
      keys = keys.dropFirst()
      switch value {
      case .enumCase(let name, let fields)? where name == key.stringValue:
        guard let label = keys.first?.stringValue else {
          path.text += ".\(name)"
          value = nil
          continue
        }
        keys = keys.dropFirst()
        path = path.enumCase(name, label: label)
        value = fields.first { $0.key == label }?.value
      case .array(let elements)?:
        let index = key.intValue ?? Int(key.stringValue.split(separator: " ").last ?? "") ?? 0
        path = path.index(index)
        value = elements.indices.contains(index) ? elements[index] : nil
      case .object(let fields)?:
        path = path.field(key.stringValue)
        value = fields.first { $0.key == key.stringValue }?.value
      default:
        if let index = key.intValue {
          path = path.index(index)
        } else {
          path = path.field(key.stringValue)
        }
        value = nil
      }
    }
    self = path
  }
}

extension TraceValue {
  /// The kind of value, as a shape message names it.
  fileprivate var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a Bool"
    case .int, .uint: "an integer"
    case .double: "a Double"
    case .string: "a String"
    case .bytes: "Data"
    case .array: "an array"
    case .object: "a struct"
    case .enumCase: "an enum case"
    case .reflected: "a reflected value"
    }
  }
}
