/// One operation of a structural diff between two `TraceValue`s. A diff is an ordered list of
/// changes; applying them in order to the old value gives the new value exactly.
public enum TraceChange: Sendable, Hashable {
  /// Replaces the value at the path; on an object, a missing last key is appended.
  case set(TracePath, TraceValue)
  /// Removes the object field or the array element (by index or by id) at the path.
  case remove(TracePath)
  /// Inserts a value into an array; the path's last component is the `.index` it will have.
  case insert(TracePath, TraceValue)

  /// The path the change touches.
  public var path: TracePath {
    switch self {
    case .set(let path, _), .remove(let path), .insert(let path, _): path
    }
  }
}
