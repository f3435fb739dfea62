import Foundation

/// The dependencies in force: a task-local value read by `@Dependency`, changed with
/// `withDependencies`, `Reducer.dependency(_:_:)` and the store's `withDependencies:`.
///
/// ```swift
/// withDependencies {
///   $0.date = DateGenerator { Date(timeIntervalSince1970: 0) }
/// } operation: {
///   @Dependency(\.date) var date
///   date.now  // 1970-01-01
/// }
/// ```
public struct DependencyValues: Sendable {
  /// The values of the task (and of tasks it creates).
  @TaskLocal public static var current = initial

  /// `current`, read where it is needed at its own type: `TaskLocal.get()` is generic and not
  /// inlinable, and copies the values through their value witnesses (about 240 instructions a
  /// read, against a few retains here; see `taskLocalValue(of:)`).
  @inlinable package static var inForce: DependencyValues {
    guard let value = taskLocalValue(of: $current) else { return initial }
    return value.assumingMemoryBound(to: DependencyValues.self).pointee
  }

  /// `current` where no value is bound (the task-local's default).
  @usableFromInline static let initial = DependencyValues()

  /// Where a test-context dependency is being read from, for the "no test value" message.
  @TaskLocal static var accessSite: AccessSite?

  /// The overrides, each in a box of its key's value type (see `AnyDependencyBox`).
  @usableFromInline var storage: [DependencyKeyID: AnyDependencyBox] = [:]

  /// Which default values are used: live or test.
  public var context: DependencyContext

  /// Where in the feature tree the reducer being run sits (ifLet / forEach / presentation);
  /// cancellation ids are scoped by it.
  @usableFromInline package var navigationIDPath = NavigationIDPath()

  /// The log of the keys an instrumented store's features read, carried by the dependencies
  /// of its effects (nil elsewhere: its reducers note keys through the reducing context).
  package var keyLog: DependencyKeyLog?

  /// Values for the default context of the process.
  public init() {
    context = .default
  }

  /// Values for a context.
  public init(context: DependencyContext) {
    self.context = context
  }

  /// Whether nothing is overridden (lets the store skip installing the values per batch).
  package var isDefault: Bool {
    storage.isEmpty && context == .default && navigationIDPath.isEmpty && keyLog == nil
  }

  /// The value for a key: the override if one was set, else the key's value for the context.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    @inlinable get {
      noteRead(key)
      if let value = override(for: key) {
        return value
      }
      switch context {
      case .live:
        return LiveValueCache.value(for: key)
      case .preview:
        return LiveValueCache.previewValue(for: key)
      case .test:
        // Not cached: every test that reads a key without a test value must fail.
        return Key.testValue
      }
    }
    set {
      setOverride(newValue, for: key)
    }
  }

  /// The value for a key that has no live value here (`TestDependencyKey`): the override if
  /// one was set, else its test or preview value; a live context reports that it is missing.
  @_disfavoredOverload
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      noteRead(key)
      if let value = override(for: key) {
        return value
      }
      switch context {
      case .live:
        reportMissingLiveValue(key)
        return Key.testValue
      case .preview:
        return LiveValueCache.previewValue(for: key)
      case .test:
        return Key.testValue
      }
    }
    set {
      setOverride(newValue, for: key)
    }
  }

  /// Notes a key read in the instrumented store's log: through the values' log in an effect,
  /// through the reducing context in a reducer (`DependencyKeyLog`).
  @usableFromInline
  func noteRead<Key: TestDependencyKey>(_ key: Key.Type) {
    if let keyLog { keyLog.note(key) } else { ReducingContext.noteKey(key) }
  }

  /// The value set for a key, if any.
  @inlinable
  func override<Key: TestDependencyKey>(for key: Key.Type) -> Key.Value? {
    guard !storage.isEmpty, let box = storage[DependencyKeyID(ObjectIdentifier(key))] else {
      return nil
    }
    // Only `setOverride(_:for:)` stores under a key's identity, in a box of its value type.
    return unsafeDowncast(box, to: DependencyBox<Key.Value>.self).value
  }

  /// Sets the value for a key.
  @usableFromInline
  mutating func setOverride<Key: TestDependencyKey>(_ value: Key.Value, for key: Key.Type) {
    storage[DependencyKeyID(ObjectIdentifier(key))] = DependencyBox(value)
  }

  struct AccessSite: Sendable {
    var keyPathDescription: String?
    var location: SourceLocation
  }
}

/// Live values are computed once per process, so a live client is one shared instance; so
/// are preview values.
///
/// Each value is kept in a box of its key's value type, so a read is a class downcast rather
/// than a cast out of an existential (thousands of instructions for a value such as
/// `any Clock<Duration>`); reads take no lock (see `PublishedValueCache`).
@usableFromInline
enum LiveValueCache {
  @usableFromInline static let cache = PublishedValueCache()
  @usableFromInline static let previewCache = PublishedValueCache()

  @inlinable
  static func value<Key: DependencyKey>(for key: Key.Type) -> Key.Value {
    cache.value(for: ObjectIdentifier(key)) { Key.liveValue }
  }

  @inlinable
  static func previewValue<Key: TestDependencyKey>(for key: Key.Type) -> Key.Value {
    previewCache.value(for: ObjectIdentifier(key)) { Key.previewValue }
  }
}

/// Runs `operation` with changed dependencies.
///
/// ```swift
/// let id = withDependencies { $0.uuid = .incrementing } operation: {
///   @Dependency(\.uuid) var uuid
///   return uuid()
/// }
/// // 00000000-0000-0000-0000-000000000000
/// ```
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.inForce
  try update(&values)
  return try DependencyValues.$current.withValue(values) {
    try operation()
  }
}

/// Runs an asynchronous `operation` with changed dependencies.
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.inForce
  try await update(&values)
  return try await DependencyValues.$current.withValue(values) {
    try await operation()
  }
}
