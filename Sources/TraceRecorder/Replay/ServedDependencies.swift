import ComposableCore
import Foundation
import Synchronization
import TraceKit

/// Serves the dependency values a step read while it was recorded, in the recorded order.
///
/// ```swift
/// let served = ServedDependencies([DependencyRead(key: "uuid", value: .string(text))])
/// withDependencies { served.install(into: &$0) } operation: { … }  // uuid() returns it
/// ```
///
/// A reducer that reads more values than were recorded gets fresh deterministic ones (zero
/// UUIDs, the reference date, zero), and its state will most likely diverge right there.
final class ServedDependencies: Sendable {
  private let queues: Mutex<[String: [TraceValue]]>

  init(_ reads: [DependencyRead]) {
    var queues: [String: [TraceValue]] = [:]
    for read in reads { queues[read.key, default: []].append(read.value) }
    for key in queues.keys { queues[key]?.reverse() }
    self.queues = Mutex(queues)
  }

  private func next(_ key: String) -> TraceValue? {
    queues.withLock { $0[key]?.popLast() }
  }

  func install(into values: inout DependencyValues) {
    values.uuid = UUIDGenerator { [self] in
      if case .string(let text) = next("uuid"), let uuid = UUID(uuidString: text) { return uuid }
      return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
    values.date = DateGenerator { [self] in
      switch next("date") {
      case .double(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
      case .int(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
      default: return Date(timeIntervalSinceReferenceDate: 0)
      }
    }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(next: { [self] in
      switch next("random") {
      case .int(let value): return UInt64(bitPattern: value)
      case .uint(let value): return value
      default: return 0
      }
    })
  }
}
