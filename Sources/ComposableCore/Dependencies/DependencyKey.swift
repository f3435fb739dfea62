/// A key for a dependency: its type and the values used live and in tests.
///
/// ```swift
/// struct APIClient: Sendable { var fetch: @Sendable () async throws -> String }
///
/// enum APIClientKey: DependencyKey {
///   static let liveValue = APIClient(fetch: { try await realFetch() })
///   static let testValue = APIClient(fetch: { "test" })
/// }
///
/// extension DependencyValues {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// A key without a `testValue` uses its `liveValue` in tests but first reports an issue
/// naming the key, so the test fails until the dependency is overridden. Its `previewValue`
/// (`DependencyContext.preview`) is its `liveValue` unless it gives one.
///
/// A key whose live value lives in another module (the feature's interface module declares
/// it, the app's module implements it) is a `TestDependencyKey` there.
public protocol DependencyKey: TestDependencyKey {
  /// The dependency's type, restated so that a key with only a `liveValue` infers it.
  associatedtype Value
  /// The value used in an app.
  static var liveValue: Value { get }
  /// The value used in tests.
  static var testValue: Value { get }
}

extension DependencyKey {
  /// The live value, unless the key gives a preview value of its own.
  public static var previewValue: Value { liveValue }
}

extension DependencyKey {
  public static var testValue: Value {
    let access = DependencyValues.accessSite
    let name = access?.keyPathDescription ?? "\(Self.self).self"
    var message = """
      @Dependency(\(name)) has no test value, but was accessed from a test context.

        Key: \(Self.self)
        Value: \(Value.self)
      """
    if let access {
      message += "\n  Accessed at: \(access.location)"
    }
    message += """


      Dependencies may not use their live value in tests. Override it in the test \
      ("withDependencies" on the TestStore), or give "\(Self.self)" a "testValue".
      """
    if let access {
      reportIssue(message, location: access.location)
    } else {
      reportIssue(message)
    }
    return liveValue
  }
}

/// Where dependency values come from.
public enum DependencyContext: Sendable, Hashable {
  /// `liveValue`s.
  case live
  /// `previewValue`s: a preview of a feature (Xcode sets `XCODE_RUNNING_FOR_PREVIEWS=1`).
  case preview
  /// `testValue`s.
  case test

  /// `.test` in a test process (an `.xctest` bundle or a Swift Testing run), `.preview` when
  /// `XCODE_RUNNING_FOR_PREVIEWS` is `1`, else `.live`.
  public static let `default`: DependencyContext =
    detectTesting()
    ? .test
    : ProcessInfo.processInfo.environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1" ? .preview : .live

  private static func detectTesting() -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if environment["XCTestConfigurationFilePath"] != nil
      || environment["XCTestBundlePath"] != nil
      || environment["SWIFT_TESTING_ENABLED"] != nil
    {
      return true
    }
    let arguments = ProcessInfo.processInfo.arguments
    if let executable = arguments.first, executable.hasSuffix(".xctest") {
      return true
    }
    return arguments.contains("--testing-library")
  }
}

import Foundation
