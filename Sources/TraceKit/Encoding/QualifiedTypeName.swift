/// `Module.Feature.State`: a type's qualified name without the `(unknown context at $…)` part
/// Swift prints for private and local types (an address, different from build to build).
///
/// ```swift
/// qualifiedTypeName(Feature.Action.self)  // "App.Feature.Action", even when Action is private
/// ```
@usableFromInline
package func qualifiedTypeName(_ type: Any.Type) -> String {
  var text = String(reflecting: type)
  while let start = text.range(of: "(unknown context at "),
    let end = text[start.upperBound...].range(of: ").")
  {
    text.removeSubrange(start.lowerBound..<end.upperBound)
  }
  return text
}
