/// Reads a dependency from the values in force where it is read.
///
/// ```swift
/// struct Feature: Reducer {
///   @Dependency(\.uuid) var uuid
///   …
///   state.items.append(Item(id: uuid()))
/// }
/// ```
@propertyWrapper
public struct Dependency<Value>: Sendable {
  @usableFromInline let keyPath: KeyPath<DependencyValues, Value> & Sendable
  @usableFromInline let location: SourceLocation

  /// A dependency by its key path in `DependencyValues`.
  @inlinable
  public init(
    _ keyPath: KeyPath<DependencyValues, Value> & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.keyPath = keyPath
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The current value.
  @inlinable
  public var wrappedValue: Value {
    let values = DependencyValues.inForce
    guard values.context == .test else {
      return values[keyPath: keyPath]
    }
    return testValue(in: values)
  }

  @usableFromInline
  func testValue(in values: DependencyValues) -> Value {
    // Only in tests: remember which key path is read, for the "no test value" message.
    let site = DependencyValues.AccessSite(
      keyPathDescription: Self.describe(keyPath),
      location: location
    )
    return DependencyValues.$accessSite.withValue(site) {
      values[keyPath: keyPath]
    }
  }

  /// `\.client` when the runtime can name the property; `nil` for computed properties on
  /// platforms whose key paths do not carry names (Linux prints `<computed 0x… (Client)>`).
  static func describe(_ keyPath: AnyKeyPath) -> String? {
    let text = String(describing: keyPath)
    let prefix = "\\DependencyValues"
    guard text.hasPrefix(prefix), !text.contains("<computed") else { return nil }
    return "\\" + text.dropFirst(prefix.count)
  }
}
