/// A key path stored where a `Sendable` value is required.
///
/// Key paths are immutable once formed; the ones case key paths are made of capture nothing but
/// other key paths, so sharing one between threads is safe even when the compiler cannot tell.
@usableFromInline
package struct SendableKeyPath: Hashable, @unchecked Sendable {
  package let keyPath: AnyKeyPath

  package init(_ keyPath: AnyKeyPath) {
    self.keyPath = keyPath
  }
}
