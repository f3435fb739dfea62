import TraceKit

/// The texts (`TracePath.description`) of the paths a writer's steps changed, so that a path
/// changed again (most steps change the same few) is not written out again: hashing a path
/// and comparing it with the one found costs about half of building its text (about 1,430
/// instructions and an allocation a path on the composed app, callgrind). Exact: a text is
/// reused only for a path equal to the one it was made from. At most `limit` are kept; past
/// that the texts start again from none.
///
/// ```swift
/// var texts = PathTexts()
/// texts.text(of: TracePath([.key("counter"), .key("count")]))  // "counter.count", built
/// texts.text(of: TracePath([.key("counter"), .key("count")]))  // "counter.count", kept
/// ```
struct PathTexts {
  private var texts: [TracePath: String] = [:]
  static let limit = 1_024

  mutating func text(of path: TracePath) -> String {
    if let text = texts[path] { return text }
    let text = path.description
    if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
    texts[path] = text
    return text
  }
}
