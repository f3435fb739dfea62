import ComposableCore
import TraceValues

/// TestStore failures in the one look of values and diffs (TraceValues' renderer, the same as
/// `inspector diff`): each value becomes a `TraceValue` (encoded when it is `Encodable`, by
/// reflection otherwise), changed fields are shown with their ancestors, unchanged siblings
/// are folded.
///
/// ```swift
/// print(StateDiff.render(Counter.State(count: 1), Counter.State(count: 2)))
/// //   Counter.State(
/// // -   count: 1,
/// // +   count: 2,
/// //     … (1 unchanged)
/// //   )
/// ```
///
/// Each line starts with a mark (`-` first value, `+` second value, ` ` both) and a space;
/// the root is named by its type, without the module.
enum StateDiff {
  /// Lines of a failure message are not cut, but leaf-only containers stay on one line only
  /// when they fit this many columns.
  static let width = 80

  static func render(_ first: Any, _ second: Any) -> String {
    DiffRenderer(width: width).text(
      from: traceValue(first), to: traceValue(second), typeName: typeName(type(of: first)))
  }

  /// A value on its own, each line indented by `indent` spaces.
  static func dump(_ value: Any, indent: Int = 0) -> String {
    let pad = String(repeating: " ", count: indent)
    var lines: [String] = []
    ValueDumper(width: width - indent).lines(
      traceValue(value), typeName: typeName(type(of: value))
    ) { lines.append(pad + $0) }
    return lines.joined(separator: "\n")
  }

  /// The value as the trace would record it, or by reflection when it is not `Encodable`; a
  /// root `.reflected` marker is dropped (the root is named by `typeName`).
  static func traceValue(_ value: Any) -> TraceValue {
    if let encodable = value as? any Encodable,
      let encoded = try? TraceValueEncoder().encode(encodable)
    {
      return encoded
    }
    let reflected = TraceValue(reflecting: value) { label, child in
      // `@PresentationState var sheet` is stored as `_sheet`: show the property's name.
      label.hasPrefix("_") && child is any PropertyWrapperReflecting
        ? String(label.dropFirst()) : label
    }
    if case .reflected(_, let inner) = reflected { return inner }
    return reflected
  }

  /// `Counter.State`, not `ModuleName.Counter.State`.
  static func typeName(_ type: Any.Type) -> String {
    var full = String(reflecting: type)
    // Private and local types print as `Module.(unknown context at $55bf…).Name`.
    while let start = full.range(of: "(unknown context at "),
      let end = full[start.upperBound...].range(of: ").")
    {
      full.removeSubrange(start.lowerBound..<end.upperBound)
    }
    guard let dot = full.firstIndex(of: ".") else { return full }
    let module = full[..<dot]
    if module.contains("<") || module.contains("(") { return full }
    return String(full[full.index(after: dot)...])
  }
}
