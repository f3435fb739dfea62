import Foundation

/// The Swift types of a trace's state and actions by path pattern, as the recorder met them:
/// what lets `inspector testgen` write `$0.todos[id: UUID(uuidString: "…")!].isComplete = true`
/// instead of decoding every value from its recorded JSON.
///
/// A pattern is a `TracePath` with every element written `[]`: `todos[].isComplete`,
/// `destination.search.query` (a key enters a field or an enum case), `scores[]` (a
/// dictionary's values). The root is the empty pattern. Stored in the trace's `meta` table
/// under `swift_types` as JSON (docs/trace-format.md), which readers that do not know it
/// ignore.
///
/// ```swift
/// table.state["todos"]?.kind        // .identifiedArray
/// table.state["todos"]?.idType      // "Foundation.UUID"
/// table.state["filter"]?.rawValues  // ["active": "active", "all": "all"]
/// ```
public struct SwiftTypeTable: Sendable, Equatable, Codable {
  public var state: [String: SwiftTypeEntry]
  public var action: [String: SwiftTypeEntry]

  public init(state: [String: SwiftTypeEntry] = [:], action: [String: SwiftTypeEntry] = [:]) {
    self.state = state
    self.action = action
  }

  /// The table as the trace stores it: JSON with sorted keys, so a recording is reproducible.
  public var jsonText: String {
    var bytes: [UInt8] = []
    writeJSONText(into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The table a trace stored, or nil when its text is not one (a damaged or foreign value is
  /// ignored like a missing one: the generator falls back to recorded values).
  public init?(jsonText: String) {
    guard let table = try? JSONDecoder().decode(Self.self, from: Data(jsonText.utf8)) else {
      return nil
    }
    self = table
  }
}

/// One pattern's Swift type: its name (`String(reflecting:)`), what kind of value it is, and
/// what the recorder saw of it.
public struct SwiftTypeEntry: Sendable, Equatable, Codable {
  public enum Kind: String, Sendable, Codable {
    case `struct`, `enum`, identifiedArray, array, dictionary, set
    case uuid, date, url, string, bool, integer, floatingPoint
    /// A class instance, a tuple, or a nil optional whose wrapped value was never seen.
    case other
  }

  /// The type's name; for an optional, the wrapped type's (`optional` says it is one).
  public var type: String
  public var kind: Kind
  /// Whether the value is an `Optional` of `type`.
  public var optional: Bool?
  /// An enum's cases the recorder saw, sorted.
  public var cases: [String]?
  /// A raw-representable enum's cases the recorder saw: raw value as text → case name.
  public var rawValues: [String: String]?
  /// An identified array's id type, a dictionary's key type.
  public var keyType: String?

  public init(
    type: String, kind: Kind, optional: Bool? = nil, cases: [String]? = nil,
    rawValues: [String: String]? = nil, keyType: String? = nil
  ) {
    self.type = type
    self.kind = kind
    self.optional = optional
    self.cases = cases
    self.rawValues = rawValues
    self.keyType = keyType
  }
}
