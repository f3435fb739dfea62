import ComposableCore

/// Loads the message the counter shows for a count.
///
/// ```swift
/// @Dependency(\.messageClient) var messageClient
/// try await messageClient.fetch(3)  // "3 is odd and prime."
///
/// // In a test:
/// $0.messageClient = MessageClient { count in "count \(count)" }
/// ```
public struct MessageClient: Sendable {
  /// The message for a count; throws `MessageError` when there is none.
  public var fetch: @Sendable (_ count: Int) async throws -> String

  public init(fetch: @escaping @Sendable (_ count: Int) async throws -> String) {
    self.fetch = fetch
  }
}

/// Why the message client has no message for a count.
public struct MessageError: Error, Equatable, Sendable, CustomStringConvertible {
  public var count: Int

  public init(count: Int) {
    self.count = count
  }

  public var description: String { "no message for \(count)" }
}

extension MessageClient {
  /// The live client: answers from a rule of arithmetic after a short wait on the clock
  /// dependency (standing in for the network), and has no message for negative counts.
  public static var live: MessageClient {
    MessageClient { count in
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .milliseconds(100))
      return try message(for: count)
    }
  }

  /// The test client: the same messages, at once.
  public static var immediate: MessageClient {
    MessageClient { count in try message(for: count) }
  }

  /// The message for a count, or `MessageError` for a negative count.
  ///
  /// ```swift
  /// try MessageClient.message(for: 4)  // "4 is even."
  /// try MessageClient.message(for: 7)  // "7 is odd and prime."
  /// ```
  public static func message(for count: Int) throws -> String {
    guard count >= 0 else { throw MessageError(count: count) }
    let parity = count.isMultiple(of: 2) ? "even" : "odd"
    return isPrime(count) ? "\(count) is \(parity) and prime." : "\(count) is \(parity)."
  }

  static func isPrime(_ value: Int) -> Bool {
    guard value >= 2 else { return false }
    var divisor = 2
    while divisor * divisor <= value {
      if value.isMultiple(of: divisor) { return false }
      divisor += 1
    }
    return true
  }
}

enum MessageClientKey: DependencyKey {
  static var liveValue: MessageClient { .live }
  // On the clock like the live value: a test generated from a recording passes with it.
  static var testValue: MessageClient { .live }
}

extension DependencyValues {
  /// The counter's message client. Live: `MessageClient.live`. In tests: the
  /// same, on the test clock; `.immediate` answers at once.
  public var messageClient: MessageClient {
    get { self[MessageClientKey.self] }
    set { self[MessageClientKey.self] = newValue }
  }
}
