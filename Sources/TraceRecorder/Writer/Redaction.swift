import TraceKit

/// Replaces the values at some paths with a marker holding their stable hash, so a trace can
/// be shared without them while replay still checks that they match.
///
/// ```swift
/// let redaction = try Redaction(validating: ["password"], setting: "redactedStatePaths")
/// var value: TraceValue = .object([TraceField("password", .string("hunter2"))])
/// redaction.apply(to: &value)  // [0]: the paths that matched
/// print(value)  // (password: "<redacted 5f1d…>")
/// ```
@usableFromInline
struct Redaction: Sendable {
  let paths: [TracePath]
  /// The paths as configured, in the same order.
  let texts: [String]

  /// Parses every path; the first that does not parse is an error naming the setting and its
  /// position, so nothing is ever recorded in the clear because of a typo.
  init(validating texts: [String], setting: String, of kind: String = "state")
    throws(RecorderConfigurationError)
  {
    var parsed: [TracePath] = []
    for (index, text) in texts.enumerated() {
      do {
        parsed.append(try TracePath(parsing: text))
      } catch {
        throw RecorderConfigurationError(
          setting: "\(setting)[\(index)]", problem: "is not a \(kind) path: \(error)")
      }
    }
    paths = parsed
    self.texts = texts
  }

  /// Paths already validated (by the recorder's configuration check, or by the recorder that
  /// wrote a trace's metadata); one that does not parse is left out.
  init(validated texts: [String]) {
    var parsed: [TracePath] = []
    var kept: [String] = []
    for text in texts {
      guard let path = try? TracePath(parsing: text) else { continue }
      parsed.append(path)
      kept.append(text)
    }
    paths = parsed
    self.texts = kept
  }

  @usableFromInline var isEmpty: Bool { paths.isEmpty }

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

  /// The changed path as the redacted states show it: a change at or below a redacted path
  /// is a change of the marker at that path.
  func changedPath(_ path: TracePath) -> TracePath {
    paths.first { path.components.starts(with: $0.components) } ?? path
  }

  private func redactBelow(_ path: TracePath, in value: inout TraceValue) {
    for redacted in paths where redacted.components.starts(with: path.components) {
      let relative = TracePath(Array(redacted.components.dropFirst(path.components.count)))
      guard let found = value.value(at: relative), !Self.isMarker(found) else { continue }
      try? TraceDiff.apply([.set(relative, Self.marker(for: found))], to: &value)
    }
  }

  /// Replaces every redacted value in `value`; returns the positions of the paths found in
  /// it (redacted now, or already a marker).
  @usableFromInline
  @discardableResult
  func apply(to value: inout TraceValue) -> [Int] {
    var found: [Int] = []
    for (index, path) in paths.enumerated() {
      guard let current = value.value(at: path) else { continue }
      found.append(index)
      guard !Self.isMarker(current) else { continue }
      // The path was just found in the value, so the patch cannot fail.
      try? TraceDiff.apply([.set(path, Self.marker(for: current))], to: &value)
    }
    return found
  }
}
