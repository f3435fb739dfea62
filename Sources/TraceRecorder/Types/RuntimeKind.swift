@_spi(Reflection) import Swift

/// The Swift runtime's kind of a type (struct, enum, optional, class, existential, tuple …),
/// read as the kind of the one field of a probe struct: the runtime's field records tell each
/// field's kind, and nothing public tells a type's own.
///
/// ```swift
/// RuntimeKind.of(Int.self)       // .struct
/// RuntimeKind.of(Int?.self)      // .optional
/// RuntimeKind.of((any Error).self)  // .existential
/// ```
enum RuntimeKind {
  static func of(_ type: Any.Type) -> _MetadataKind {
    func kind<T>(_: T.Type) -> _MetadataKind {
      var found = _MetadataKind.unknown
      _ = _forEachField(of: Probe<T>.self, options: []) { _, _, _, kind in
        found = kind
        return false
      }
      return found
    }
    return kind(type)
  }

  private struct Probe<T> {
    var value: T
  }
}
