import ComposableCore
import TraceValues

/// A binding reflects as `.set(keyPath, value)`: its key path is immutable and its closures
/// capture only the key path and the value, so a binding holds what its value holds.
extension BindingAction: ReflectsAsItsValue {
  package var reflectedValue: Any { value }
}
