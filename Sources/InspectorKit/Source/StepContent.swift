import TraceKit

/// The payload of one step handed out by `TraceSource.forEachStepContent`: parsed only for
/// what a command asks (replay reads the changes alone, log the action alone).
///
/// ```swift
/// try source.forEachStepContent(from: 1, to: 10) { entry, content throws(InspectorError) in
///   print(entry.step, try content.changes().count)
///   return true
/// }
/// ```
package struct StepContent {
  enum Storage {
    /// A line of the chunk a trace file is streaming.
    case file(TraceReader.StepPayload)
    /// Any other source, asked step by step.
    case source(any TraceSource, step: Int)
  }

  let storage: Storage

  /// The streamed line of a step of a trace file (nil for other sources): its changes can be
  /// parsed on another thread (`StepPayload.changes(cachingPathsIn:)`).
  package var streamedLine: TraceReader.StepPayload? {
    guard case .file(let payload) = storage else { return nil }
    return payload
  }

  package func action() throws(InspectorError) -> TraceValue {
    try read { payload throws(TraceError) in
      try payload.action()
    } fromSource: { source, step throws(InspectorError) in
      try source.action(at: step)
    }
  }

  /// The action's JSON as the line stores it, for a step streamed from a trace file (nil for
  /// other sources, and for a line that does not begin as the writer writes it): `export`
  /// writes each distinct action once, found again by these bytes. `body` gets bytes valid
  /// only during the call.
  package func withStoredActionJSON<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
    guard case .file(let payload) = storage else { return nil }
    return payload.withStoredActionBytes(body)
  }

  /// The values the reducer read from non-deterministic dependencies (uuid, date, random).
  package func dependencies() throws(InspectorError) -> [DependencyRead] {
    try read { payload throws(TraceError) in
      try payload.dependencies()
    } fromSource: { source, step throws(InspectorError) in
      try source.dependencies(at: step)
    }
  }

  package func changes() throws(InspectorError) -> [TraceChange] {
    try read { payload throws(TraceError) in
      try payload.changes()
    } fromSource: { source, step throws(InspectorError) in
      try source.changes(at: step)
    }
  }

  /// A part of the step: from the streamed line, or asked of the source.
  private func read<T>(
    _ fromLine: (TraceReader.StepPayload) throws(TraceError) -> T,
    fromSource: (any TraceSource, Int) throws(InspectorError) -> T
  ) throws(InspectorError) -> T {
    switch storage {
    case .file(let payload):
      do {
        return try fromLine(payload)
      } catch {
        throw TraceFileSource.inspectorError(error)
      }
    case .source(let source, let step):
      return try fromSource(source, step)
    }
  }
}
