/// A short rendering of an enum value for runtime messages: `.child(.tapped)`.
///
/// Uses `Mirror`, so it is only called on the paths that report an issue.
///
/// ```swift
/// describeCase(Action.row(.element(id: 1, action: .tap)))
/// // ".row(.element(id: 1, action: .tap))"
/// ```
@usableFromInline
package func describeCase(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    guard let child = mirror.children.first, let label = child.label else {
      return "." + String(describing: value)
    }
    return ".\(label)(\(describePayload(child.value)))"
  case .optional:
    guard let child = mirror.children.first else { return "nil" }
    return describeCase(child.value)
  case .struct, .class:
    return String(describing: type(of: value)) + "(…)"
  default:
    return String(reflecting: value)
  }
}

private func describePayload(_ payload: Any) -> String {
  let mirror = Mirror(reflecting: payload)
  guard mirror.displayStyle == .tuple else {
    return describeCase(payload)
  }
  return mirror.children.map { child in
    let value = describeCase(child.value)
    if let label = child.label, !label.hasPrefix(".") {
      return "\(label): \(value)"
    }
    return value
  }.joined(separator: ", ")
}
