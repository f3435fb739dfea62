import Synchronization
import TraceKit

/// What a writer learned about each type of field it met, so that a step asks the runtime
/// nothing: a protocol cast that fails costs more than encoding a small field.
///
/// One per writer (its thread alone uses it), filled from a table all writers share: the first
/// question about a type scans the conformance tables, over 100,000 instructions.
///
/// ```swift
/// let types = WalkedTypes()
/// types.kind(of: rows)          // .elements (an IdentifiedArray)
/// types.kind(of: Point(x: 1))   // .walked: encoded field by field
/// types.kind(of: UUID())        // .whole
/// ```
final class WalkedTypes {
  enum Kind {
    /// Its elements are re-encoded one by one (`IncrementalElements`).
    case elements
    /// Encoded field by field (`FieldWalker`), until a value of it could not be.
    case walked
    /// Encoded whole by `TraceValueEncoder`.
    case whole
  }

  @exclusivity(unchecked) private var kinds: [ObjectIdentifier: Kind] = [:]
  private static let shared = Mutex<[ObjectIdentifier: Kind]>([:])

  func kind<T: Encodable>(of value: T) -> Kind {
    let id = ObjectIdentifier(T.self)
    if let kind = kinds[id] { return kind }
    let kind =
      Self.shared.withLock { $0[id] }
      ?? {
        let kind: Kind =
          if value is any IncrementalElements {
            .elements
          } else if TraceValueEncoder.encodesFieldByField(value) {
            .walked
          } else {
            .whole
          }
        Self.shared.withLock { $0[id] = kind }
        return kind
      }()
    kinds[id] = kind
    return kind
  }

  /// A value of `type` wrote something a walker cannot keep (a nested container, a single
  /// value): the type is encoded whole from now on.
  func cannotWalk<T>(_ type: T.Type) {
    let id = ObjectIdentifier(type)
    kinds[id] = .whole
    Self.shared.withLock { $0[id] = .whole }
  }
}
