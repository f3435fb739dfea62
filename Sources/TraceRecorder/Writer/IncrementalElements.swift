import ComposableCore
import TraceKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A collection field whose elements `IncrementalEncoder` re-encodes one by one.
protocol IncrementalElements {
  func encodeIncrementally(key: String, previous: FieldCache?) throws -> FieldCache
}

extension IdentifiedArray: IncrementalElements where Element: Encodable {
  /// Re-encodes the elements whose bits differ from the element at the same position in the
  /// previous array (which the cache keeps alive, so equal bits are the same value). With the
  /// same ids in the same order, the changes are per element (`rows[id: 7].title`); otherwise
  /// the field is diffed whole.
  ///
  /// ```swift
  /// let field = try rows.encodeIncrementally(key: "rows", previous: cached)
  /// field.changes  // [.set(rows[id: 7].done, true)]
  /// ```
  func encodeIncrementally(key: String, previous: FieldCache?) throws -> FieldCache {
    let encoder = TraceValueEncoder()
    let new = elements
    guard let previous, let old = previous.swiftValue as? Self, var trees = previous.elements
    else {
      let trees = try new.map { try encoder.encode($0) }
      var field = FieldCache(key: key, swiftValue: self, value: .array(trees), elements: trees)
      if let previous {
        field.changes = TraceDiff.changes(from: previous.value, to: field.value)
          .map { $0.prefixed(by: key) }
      }
      return field
    }
    let oldElements = old.elements
    var changes: [TraceChange] = []
    var sameShape = oldElements.count == new.count
    if sameShape {
      for index in Self.differingIndices(oldElements, new) {
        let tree = try encoder.encode(new[index])
        if old.ids[index] != ids[index] { sameShape = false }
        if sameShape {
          let component = Self.component(of: tree, index: index)
          changes += TraceDiff.changes(from: trees[index], to: tree)
            .map { $0.prefixed(by: [.key(key), component]) }
        }
        trees[index] = tree
      }
    } else {
      var oldIndex: [ID: Int] = [:]
      oldIndex.reserveCapacity(oldElements.count)
      for (index, id) in old.ids.enumerated() { oldIndex[id] = index }
      var rebuilt: [TraceValue] = []
      rebuilt.reserveCapacity(new.count)
      for (index, element) in new.enumerated() {
        if let match = oldIndex[ids[index]], Self.sameBits(oldElements, match, new, index) {
          rebuilt.append(trees[match])
        } else {
          rebuilt.append(try encoder.encode(element))
        }
      }
      trees = rebuilt
    }
    let value = TraceValue.array(trees)
    if !sameShape {
      changes = TraceDiff.changes(from: previous.value, to: value).map { $0.prefixed(by: key) }
    }
    return FieldCache(
      key: key, swiftValue: self, value: value, elements: trees, changes: changes)
  }

  /// `rows[id: 7]` when the element is an object with an `id` (the ids of an identified array
  /// are distinct), else `rows[3]`.
  private static func component(of tree: TraceValue, index: Int) -> TracePath.Component {
    if case .object(let fields) = tree, let id = fields.first(where: { $0.key == "id" }) {
      return .id(id.value)
    }
    return .index(index)
  }

  /// The positions whose elements' bits differ, comparing blocks of elements first.
  private static func differingIndices(_ old: [Element], _ new: [Element]) -> [Int] {
    let stride = MemoryLayout<Element>.stride
    guard stride > 0 else { return [] }
    var indices: [Int] = []
    old.withUnsafeBytes { oldBytes in
      new.withUnsafeBytes { newBytes in
        guard let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress,
          oldBase != newBase
        else { return }
        let block = 64
        var start = 0
        while start < new.count {
          let end = Swift.min(start + block, new.count)
          let offset = start * stride
          if memcmp(oldBase + offset, newBase + offset, (end - start) * stride) != 0 {
            for index in start..<end
            where memcmp(oldBase + index * stride, newBase + index * stride, stride) != 0 {
              indices.append(index)
            }
          }
          start = end
        }
      }
    }
    return indices
  }

  private static func sameBits(_ old: [Element], _ oldIndex: Int, _ new: [Element], _ index: Int)
    -> Bool
  {
    let stride = MemoryLayout<Element>.stride
    return old.withUnsafeBytes { oldBytes in
      new.withUnsafeBytes { newBytes in
        guard let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress else {
          return stride == 0
        }
        return memcmp(oldBase + oldIndex * stride, newBase + index * stride, stride) == 0
      }
    }
  }
}
