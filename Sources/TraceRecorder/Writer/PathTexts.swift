import TraceKit

/// The texts (`TracePath.description`) of the paths a writer's recent steps changed, so that a
/// path changed again (most steps change the same few) is not written out again: comparing a
/// path with a few kept ones costs less than building its text (about 1,400 instructions and
/// an allocation a path on the composed app, callgrind). Exact: a text is reused only for a
/// path equal to the one it was made from.
///
/// ```swift
/// var texts = PathTexts()
/// texts.text(of: TracePath([.key("counter"), .key("count")]))  // "counter.count", built
/// texts.text(of: TracePath([.key("counter"), .key("count")]))  // "counter.count", kept
/// ```
struct PathTexts {
  /// The paths kept and their texts, at the same positions.
  private var paths: [TracePath] = []
  private var texts: [String] = []
  /// Where the next path not kept replaces a kept one, once `capacity` are kept.
  private var next = 0
  static let capacity = 16

  mutating func text(of path: TracePath) -> String {
    for index in paths.indices where paths[index] == path { return texts[index] }
    let text = path.description
    if paths.count < Self.capacity {
      paths.append(path)
      texts.append(text)
    } else {
      paths[next] = path
      texts[next] = text
      next = (next + 1) % Self.capacity
    }
    return text
  }
}
