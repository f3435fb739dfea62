import ComposableCore
import ComposableTesting
import Foundation
import XCTest

/// A feature whose effect reads the uuid dependency while it runs.
private struct Identify: Reducer {
  struct State: Equatable, Sendable {
    var ids: [UUID] = []
  }

  enum Action: Equatable, Sendable {
    case make
    case made(UUID)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .make:
      return .run { send in
        try await Task.sleep(for: .milliseconds(1))
        @Dependency(\.uuid) var uuid
        await send(.made(uuid()))
      }
    case let .made(id):
      state.ids.append(id)
      return .none
    }
  }
}

struct Client: Sendable {
  var name: @Sendable () -> String
}

private enum ClientKey: DependencyKey {
  static let liveValue = Client(name: { "live" })
}

extension DependencyValues {
  var client: Client {
    get { self[ClientKey.self] }
    set { self[ClientKey.self] = newValue }
  }
}

@MainActor
final class DependencyTests: XCTestCase {
  private let fixed = UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000000")!

  func testEffectInheritsReducerDependencyOverride() async {
    let store = Store(initialState: Identify.State()) {
      Identify().dependency(\.uuid, .constant(fixed))
    }
    await store.send(.make).finish()
    XCTAssertEqual(store.ids, [fixed])
  }

  func testEffectInheritsStoreDependencyOverride() async {
    let store = Store(initialState: Identify.State()) {
      Identify()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.make).finish()
    await store.send(.make).finish()
    XCTAssertEqual(
      store.ids.map(\.uuidString),
      ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"]
    )
  }

  func testWithDependenciesScopesTheOverride() {
    let name = withDependencies {
      $0.client = Client(name: { "mock" })
    } operation: {
      @Dependency(\.client) var client
      return client.name()
    }
    XCTAssertEqual(name, "mock")
  }

  func testDependencyWithoutTestValueFailsNamingTheKey() {
    let (name, issues) = withIssueCollection {
      withDependencies {
        $0.context = .test
      } operation: {
        @Dependency(\.client) var client
        return client.name()
      }
    }
    XCTAssertEqual(name, "live")
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        @Dependency(ClientKey.self) has no test value, but was accessed from a test context.

          Key: ClientKey
          Value: Client
          Accessed at: ComposableCoreTests/DependencyTests.swift:88

        Dependencies may not use their live value in tests. Override it in the test \
        ("withDependencies" on the TestStore), or give "ClientKey" a "testValue".
        """
      ]
    )
  }

  func testBuiltInNonDeterministicDependenciesMustBeOverriddenInTests() {
    let (_, issues) = withIssueCollection {
      withDependencies {
        $0.context = .test
      } operation: {
        @Dependency(\.uuid) var uuid
        _ = uuid()
      }
    }
    XCTAssertEqual(
      issues.map(\.message),
      [
        """
        @Dependency(\\.uuid) was used in a test without being overridden, and its value is \
        not deterministic. Override it for the test, e.g. "$0.uuid = .incrementing".
        """
      ]
    )
  }

  func testRandomNumberGeneratorIsAReplaceableClosure() {
    let recorded = withDependencies {
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(seed: 7)
    } operation: {
      @Dependency(\.withRandomNumberGenerator) var rng
      let replay = WithRandomNumberGenerator(seed: 7)
      return (rng { $0.next() }, replay.next())
    }
    XCTAssertEqual(recorded.0, recorded.1)
  }

  func testDateGeneratorOverride() {
    let date = withDependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 42))
    } operation: {
      @Dependency(\.date) var date
      return date.now
    }
    XCTAssertEqual(date, Date(timeIntervalSince1970: 42))
  }
}

/// What a recording wrapper (the Recorder) does with the built-in non-deterministic
/// dependencies: wrap the value in force and observe every value it produces.
@MainActor
final class DependencyRecordingTests: XCTestCase {
  func testTransformDependencyWrapsTheValueInForceForReducerAndEffects() async {
    let recorded = UUIDLog()
    let store = Store(initialState: Identify.State()) {
      Identify()
        .transformDependency(\.uuid) { uuid in
          let base = uuid
          uuid = UUIDGenerator {
            let id = base()
            recorded.append(id)
            return id
          }
        }
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.make).finish()
    XCTAssertEqual(recorded.values, store.ids)
    XCTAssertEqual(recorded.values.map(\.uuidString), ["00000000-0000-0000-0000-000000000000"])
  }
}

private final class UUIDLog: Sendable {
  private let storage = Lock<[UUID]>([])
  func append(_ id: UUID) { storage.withLock { $0.append(id) } }
  var values: [UUID] { storage.withLock { $0 } }
}

import Locking

/// Two keys of one value type, and a key of an optional value: overrides are kept by key.
private enum FirstNumberKey: DependencyKey {
  static let liveValue = 1
}

private enum SecondNumberKey: DependencyKey {
  static let liveValue = 2
}

private enum NicknameKey: DependencyKey {
  static let liveValue: String? = "live"
}

extension DependencyValues {
  fileprivate var firstNumber: Int {
    get { self[FirstNumberKey.self] }
    set { self[FirstNumberKey.self] = newValue }
  }

  fileprivate var secondNumber: Int {
    get { self[SecondNumberKey.self] }
    set { self[SecondNumberKey.self] = newValue }
  }

  fileprivate var nickname: String? {
    get { self[NicknameKey.self] }
    set { self[NicknameKey.self] = newValue }
  }
}

final class DependencyOverrideTests: XCTestCase {
  func testOverridesAreKeptByKeyNotByValueType() {
    let numbers = withDependencies {
      $0.context = .live
      $0.firstNumber = 10
    } operation: {
      @Dependency(\.firstNumber) var first
      @Dependency(\.secondNumber) var second
      return [first, second]
    }
    XCTAssertEqual(numbers, [10, 2])
  }

  func testAnOverrideWithNilIsReadAsNil() {
    let nickname = withDependencies {
      $0.nickname = nil
    } operation: {
      @Dependency(\.nickname) var nickname
      return nickname
    }
    XCTAssertNil(nickname)
  }

  func testALaterOverrideReplacesAnEarlierOne() {
    let isSuspending = withDependencies {
      $0.continuousClock = ContinuousClock()
      $0.continuousClock = SuspendingClock()
    } operation: {
      @Dependency(\.continuousClock) var clock
      return clock is SuspendingClock
    }
    XCTAssertTrue(isSuspending)
  }
}
