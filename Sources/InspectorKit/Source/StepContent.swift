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

  package func action() throws(InspectorError) -> TraceValue {
    switch storage {
    case .file(let payload):
      do {
        return try payload.action()
      } catch {
        throw TraceFileSource.inspectorError(error)
      }
    case .source(let source, let step):
      return try source.action(at: step)
    }
  }

  /// The values the reducer read from non-deterministic dependencies (uuid, date, random).
  package func dependencies() throws(InspectorError) -> [DependencyRead] {
    switch storage {
    case .file(let payload):
      do {
        return try payload.dependencies()
      } catch {
        throw TraceFileSource.inspectorError(error)
      }
    case .source(let source, let step):
      return try source.dependencies(at: step)
    }
  }

  package func changes() throws(InspectorError) -> [TraceChange] {
    switch storage {
    case .file(let payload):
      do {
        return try payload.changes()
      } catch {
        throw TraceFileSource.inspectorError(error)
      }
    case .source(let source, let step):
      return try source.changes(at: step)
    }
  }
}
