import Foundation
import TraceValues

/// A `TracePath` as a dictionary key that is cheap to hash and tells paths apart by their
/// bytes: `StepLine.Encoder` keeps the JSON text of the paths it wrote under it.
///
/// `TracePath`'s own hash runs every component through SipHash (about 1,200 instructions a
/// look-up for `todos.todos[id: "…36 characters…"].isComplete`); this one reads the strings
/// eight bytes at a time. Strings are compared byte for byte, not as `String`'s `==` compares
/// them (canonical equivalence), because the text cached for a path must be that path's bytes.
/// A path with an id that is not a string or an integer has no key (`init` returns nil): such
/// paths are rare and are written without the cache.
///
/// ```swift
/// let a = PathKey(TracePath([.key("todos"), .id(.string("1")), .key("title")]))!
/// let b = PathKey(TracePath([.key("todos"), .id(.string("1")), .key("title")]))!
/// print(a == b)  // true
/// print(PathKey(TracePath([.key("caf\u{E9}")])) == PathKey(TracePath([.key("cafe\u{301}")])))
/// // false
/// ```
struct PathKey: Equatable {
  let path: TracePath
  /// The mixed hash of the path's components, computed once.
  private let hash: UInt64

  init?(_ path: TracePath) {
    var state = ByteHash.Mixer()
    for component in path.components {
      switch component {
      case .key(let key):
        state.mix(1)
        state.mix(key)
      case .index(let index):
        state.mix(2)
        state.mix(UInt64(bitPattern: Int64(index)))
      case .id(.string(let id)):
        state.mix(3)
        state.mix(id)
      case .id(.int(let id)):
        state.mix(4)
        state.mix(UInt64(bitPattern: id))
      case .id(.uint(let id)):
        state.mix(5)
        state.mix(id)
      case .id:
        return nil
      }
    }
    self.path = path
    hash = state.finish()
  }

  static func == (lhs: PathKey, rhs: PathKey) -> Bool {
    guard lhs.hash == rhs.hash else { return false }
    let left = lhs.path.components
    let right = rhs.path.components
    guard left.count == right.count else { return false }
    for index in left.indices {
      guard same(left[index], right[index]) else { return false }
    }
    return true
  }

  /// The slot of `count` (a power of two) that the key's hash picks.
  func slot(in count: Int) -> Int {
    Int(truncatingIfNeeded: hash) & (count - 1)
  }

  private static func same(_ a: TracePath.Component, _ b: TracePath.Component) -> Bool {
    switch a {
    case .key(let a):
      if case .key(let b) = b { return ByteHash.sameBytes(a, b) }
    case .index(let a):
      if case .index(let b) = b { return a == b }
    case .id(.string(let a)):
      if case .id(.string(let b)) = b { return ByteHash.sameBytes(a, b) }
    case .id(.int(let a)):
      if case .id(.int(let b)) = b { return a == b }
    case .id(.uint(let a)):
      if case .id(.uint(let b)) = b { return a == b }
    case .id:
      break
    }
    return false
  }

}
