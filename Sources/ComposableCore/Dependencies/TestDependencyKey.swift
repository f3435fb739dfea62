/// A key for a dependency whose live value is given elsewhere: its type and the values used in
/// tests and previews.
///
/// A feature's interface module declares the dependency with its test value; the module that
/// implements it makes the key a `DependencyKey` with the live value:
///
/// ```swift
/// // FeatureInterface
/// enum SearchClientKey: TestDependencyKey {
///   static let testValue = SearchClient.failing
///   static let previewValue = SearchClient.sample
/// }
///
/// // App
/// extension SearchClientKey: DependencyKey {
///   static let liveValue = SearchClient.live
/// }
/// ```
///
/// Read in a live context while no module gave a live value, it reports an issue and uses its
/// test value.
public protocol TestDependencyKey {
  /// The dependency's type.
  associatedtype Value: Sendable
  /// The value used in tests.
  static var testValue: Value { get }
  /// The value used in previews (`DependencyContext.preview`).
  static var previewValue: Value { get }
}

extension TestDependencyKey {
  /// The test value, unless the key gives a preview value of its own.
  public static var previewValue: Value { testValue }
}

/// Reports a dependency read in a live context whose key has no live value.
func reportMissingLiveValue<Key: TestDependencyKey>(_ key: Key.Type) {
  let access = DependencyValues.accessSite
  let name = access?.keyPathDescription ?? "\(Key.self).self"
  let message = """
    @Dependency(\(name)) has no live implementation, but was accessed from a live context.

      Key: \(Key.self)
      Value: \(Key.Value.self)

    Make "\(Key.self)" a "DependencyKey" with a "liveValue" in the module that implements it, \
    or override the dependency where the store is created.
    """
  if let access {
    reportIssue(message, location: access.location)
  } else {
    reportIssue(message)
  }
}
