import TraceKit

/// Replaces the values at some paths with a marker holding their stable hash, so a trace can
/// be shared without them while replay still checks that they match.
///
/// ```swift
/// let redaction = Redaction(paths: ["password"])
/// var value: TraceValue = .object([TraceField("password", .string("hunter2"))])
/// redaction.apply(to: &value)
/// print(value)  // (password: "<redacted 5f1d…>")
/// ```
@usableFromInline
struct Redaction: Sendable {
  let paths: [TracePath]
  /// Paths that did not parse; reported by the recorder's configuration check.
  let invalid: [String]

  init(paths texts: [String]) {
    var parsed: [TracePath] = []
    var invalid: [String] = []
    for text in texts {
      if let path = try? TracePath(parsing: text) {
        parsed.append(path)
      } else {
        invalid.append(text)
      }
    }
    paths = parsed
    self.invalid = invalid
  }

  var isEmpty: Bool { paths.isEmpty }

  /// The marker that stands for `value`.
  static func marker(for value: TraceValue) -> TraceValue {
    let hex = String(value.stableHash, radix: 16)
    return .string("<redacted \(String(repeating: "0", count: 16 - hex.count) + hex)>")
  }

  /// A value that is already a marker stays as it is: a state decoded from a redacted trace
  /// (replay without an initial state) carries the markers, and must hash as recorded.
  static func isMarker(_ value: TraceValue) -> Bool {
    guard case .string(let text) = value else { return false }
    return text.hasPrefix("<redacted ") && text.hasSuffix(">") && text.utf8.count == 27
  }

  /// The changes of a step with every redacted value replaced by its marker: a change at or
  /// below a redacted path becomes one `set` of the marker found in the (redacted) new state;
  /// a change above one carries a redacted value.
  func apply(to changes: [TraceChange], newState: TraceValue) -> [TraceChange] {
    var result: [TraceChange] = []
    var replaced: Set<Int> = []
    for change in changes {
      let components = change.path.components
      if let index = paths.firstIndex(where: { components.starts(with: $0.components) }) {
        if replaced.insert(index).inserted, let marker = newState.value(at: paths[index]) {
          result.append(.set(paths[index], marker))
        }
        continue
      }
      switch change {
      case .set(let path, var value):
        redactBelow(path, in: &value)
        result.append(.set(path, value))
      case .insert(let path, var value):
        redactBelow(path, in: &value)
        result.append(.insert(path, value))
      case .remove:
        result.append(change)
      }
    }
    return result
  }

  private func redactBelow(_ path: TracePath, in value: inout TraceValue) {
    for redacted in paths where redacted.components.starts(with: path.components) {
      let relative = TracePath(Array(redacted.components.dropFirst(path.components.count)))
      guard let found = value.value(at: relative), !Self.isMarker(found) else { continue }
      try? TraceDiff.apply([.set(relative, Self.marker(for: found))], to: &value)
    }
  }

  @usableFromInline
  func apply(to value: inout TraceValue) {
    for path in paths {
      guard let found = value.value(at: path), !Self.isMarker(found) else { continue }
      // The path was just found in the value, so the patch cannot fail.
      try? TraceDiff.apply([.set(path, Self.marker(for: found))], to: &value)
    }
  }
}
