import Foundation

/// Which steps `TraceReader.rows(matching:)` returns. Every condition set must hold.
///
/// ```swift
/// var filter = StepFilter(from: 10, to: 20)
/// filter.changedPath = "todos"
/// let rows = try reader.rows(matching: filter)
/// ```
public struct StepFilter: Sendable, Hashable {
  public enum Origin: Sendable, Hashable {
    case initial, user
    /// Any effect.
    case effect
    /// One effect.
    case effectID(UUID)
  }

  public var from: Int
  public var to: Int
  /// Steps whose action path is this path or starts with it followed by `.`.
  public var actionPrefix: String?
  /// Steps whose action path is one of these (a search picks them from
  /// `TraceReader.actionPaths()`).
  public var actionPaths: Set<String>?
  /// Steps that changed this state path, a part of it, or a path that contains it.
  public var changedPath: String?
  public var origin: Origin?

  public init(
    from: Int = 0, to: Int = .max, actionPrefix: String? = nil, changedPath: String? = nil,
    origin: Origin? = nil, actionPaths: Set<String>? = nil
  ) {
    self.from = from
    self.to = to
    self.actionPrefix = actionPrefix
    self.actionPaths = actionPaths
    self.changedPath = changedPath
    self.origin = origin
  }
}

extension StepFilter {
  /// Whether a row passes every condition set.
  public func matches(_ row: StepRow) -> Bool {
    guard row.step >= from, row.step <= to else { return false }
    if let origin {
      switch (origin, row.origin) {
      case (.initial, .initial), (.user, .user), (.effect, .effect): break
      case (.effectID(let wanted), .effect(let id)) where wanted == id: break
      default: return false
      }
    }
    if let actionPrefix, !Self.path(row.actionPath, isWithin: actionPrefix) {
      return false
    }
    if let actionPaths, !actionPaths.contains(row.actionPath) { return false }
    if let changedPath {
      // A change at `todos` may change `todos[0].title`, and a change at `todos[0].title`
      // changes `todos`: both directions count.
      let hit = row.changedPaths.contains { changed in
        Self.path(changed, isWithin: changedPath) || Self.path(changedPath, isWithin: changed)
      }
      if !hit { return false }
    }
    return true
  }

  /// Whether `path` is `prefix` or lies below it (`prefix.x`, `prefix[…]`).
  static func path(_ path: String, isWithin prefix: String) -> Bool {
    if prefix.isEmpty { return true }
    guard path.hasPrefix(prefix) else { return false }
    let rest = path.utf8.dropFirst(prefix.utf8.count)
    guard let next = rest.first else { return true }
    return next == UInt8(ascii: ".") || next == UInt8(ascii: "[")
  }
}
