/// `Module.Feature.State`: a type's qualified name without the `(unknown context at $…)` part
/// Swift prints for private and local types (an address, different from build to build).
///
/// ```swift
/// qualifiedTypeName(Feature.Action.self)  // "App.Feature.Action", even when Action is private
/// ```
@usableFromInline
package func qualifiedTypeName(_ type: Any.Type) -> String {
  let marker = Array("(unknown context at ".utf8)
  let text = Array(String(reflecting: type).utf8)
  var result: [UInt8] = []
  var index = 0
  while index < text.count {
    if text[index...].starts(with: marker) {
      // Skip to the ")." that closes the context, and the dot after it.
      var end = index + marker.count
      while end + 1 < text.count,
        !(text[end] == UInt8(ascii: ")") && text[end + 1] == UInt8(ascii: "."))
      {
        end += 1
      }
      if end + 1 < text.count {
        index = end + 2
        continue
      }
    }
    result.append(text[index])
    index += 1
  }
  return String(decoding: result, as: UTF8.self)
}
