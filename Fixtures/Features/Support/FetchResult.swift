/// The outcome of a fetch that an effect feeds back as an action: `Result` with an error that
/// is a value (`Equatable`, `Codable`), so actions carrying it can be asserted, recorded and
/// replayed. `Result<Value, any Error>` can be none of these.
///
/// ```swift
/// await send(.schedulesLoaded(await FetchResult { try await repository.fetchToday(now) }))
/// // .schedulesLoaded(.success([…])) or .schedulesLoaded(.failure(FetchFailure(message: …)))
/// ```
public enum FetchResult<Value: Equatable & Sendable & Codable>: Equatable, Sendable, Codable {
  case success(Value)
  case failure(FetchFailure)

  /// Runs `body`, catching its error as a `FetchFailure` (a cancellation is rethrown, so a
  /// cancelled effect does not report a failure).
  public init(catching body: () async throws -> Value) async throws {
    do {
      self = .success(try await body())
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      self = .failure(FetchFailure(error))
    }
  }

  /// The value, or `nil` for a failure.
  public var value: Value? {
    if case let .success(value) = self { value } else { nil }
  }
}

/// Why a fetch failed, as text a person can read.
///
/// ```swift
/// FetchFailure(message: "no network").message  // "no network"
/// ```
public struct FetchFailure: Error, Equatable, Sendable, Codable, CustomStringConvertible {
  /// What went wrong.
  public var message: String

  /// A failure with a message.
  public init(message: String) {
    self.message = message
  }

  /// A failure describing an error (its `description` when it has one).
  public init(_ error: any Error) {
    if let failure = error as? FetchFailure {
      self = failure
    } else {
      message = String(describing: error)
    }
  }

  public var description: String { message }
}
