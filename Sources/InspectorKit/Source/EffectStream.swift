import TraceKit

/// Effects handed out one at a time, in the order they started (`TraceSource.effectStream`).
///
/// ```swift
/// let stream = try source.effectStream(startedFrom: 0, through: 100)
/// while let effect = try stream.next() { print(effect.id) }
/// ```
package protocol EffectStream: AnyObject {
  /// The next effect, or nil after the last.
  func next() throws(InspectorError) -> EffectRecord?
}

/// An `EffectStream` over effects already in memory.
final class EffectList: EffectStream {
  private var remaining: ArraySlice<EffectRecord>

  init(_ effects: [EffectRecord]) {
    remaining = effects[...]
  }

  func next() throws(InspectorError) -> EffectRecord? {
    remaining.popFirst()
  }
}
