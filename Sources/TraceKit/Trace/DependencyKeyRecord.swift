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

  /// The records as the trace stores them.
  public static func jsonText(_ records: [Self]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(records)) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// The records a trace stored, or nil when the text is not a list of them.
  public static func records(jsonText: String) -> [Self]? {
    try? JSONDecoder().decode([Self].self, from: Data(jsonText.utf8))
  }
}
