import TraceValues

extension SignificantBytes: ValueBytes {}

/// `SignificantBytes.of(type)`, for the replay's state hasher (`StableHashEncoder`'s
/// `valueBytes`): its memo then finds an unchanged struct unchanged whatever its padding holds.
@usableFromInline
func significantBytes(of type: Any.Type) -> any ValueBytes {
  SignificantBytes.of(type)
}
