import ComposableCore
import TraceValues

/// `@PresentationState` keeps its optional state in a box it copies before a change while
/// another wrapper shares it: the box is storage, not a class instance the app changes in
/// place, so the wrapper holds what its optional state holds.
extension PresentationState: CopyOnWriteWrapper {
  package static var storedValueType: Any.Type { State?.self }
}
