import Foundation

/// A dependency key the recorded feature read (in a reducer or an effect), as the trace stores
/// it in `meta` under `dependency_keys` (a JSON array, additive in format 2): what lets
/// `inspector testgen` name the clients a test needs.
///
/// ```swift
/// try reader.dependencyKeys()
/// // [DependencyKeyRecord(keyType: "CounterFeature.MessageClientKey",
/// //                      valueType: "CounterFeature.MessageClient")]
/// ```
public struct DependencyKeyRecord: Sendable, Hashable, Codable {
  /// `String(reflecting:)` of the key type.
  public var keyType: String
  /// `String(reflecting:)` of the value type.
  public var valueType: String

  public init(keyType: String, valueType: String) {
    self.keyType = keyType
    self.valueType = valueType
  }

  /// Whether a test can write the key's type: a key declared `private` is printed with its
  /// context (`Module.(unknown context at $…).Key`) and has no such name.
  public var isNameable: Bool { !keyType.contains("(") }

  /// The module that declares the key.
  public var module: String { String(keyType.prefix { $0 != "." }) }

  /// The records as the trace stores them.
  public static func jsonText(_ records: [Self]) -> String {
    sortedJSONText(records, empty: "[]")
  }

  /// The records a trace stored, or nil when the text is not a list of them.
  public static func records(jsonText: String) -> [Self]? {
    try? JSONDecoder().decode([Self].self, from: Data(jsonText.utf8))
  }
}
