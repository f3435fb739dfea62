/// A path into a `TraceValue`, written the way a person types it:
/// `splash.isLoading`, `todos[id: 3].title`, `path[2]`.
///
/// A `.key` component selects an object field or, on an enum value, the case of that name
/// (an enum case whose only associated value is unlabelled is entered directly, without `_0`).
/// An `.index` component selects an array element by position; an `.id` component selects the
/// element of an array of identified objects whose `id` field equals the value.
public struct TracePath: Sendable, Hashable {
  public enum Component: Sendable, Hashable {
    case key(String)
    case index(Int)
    case id(TraceValue)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// The empty path: the root value itself.
  public static let root = TracePath()
}
