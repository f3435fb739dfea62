/// A binary min-heap: the effect endings the Perfetto export has yet to write, smallest time
/// first, in memory proportional to the effects running at once.
///
/// ```swift
/// var heap = MinHeap<Int>()
/// heap.insert(3); heap.insert(1)
/// heap.popMin()  // 1
/// ```
struct MinHeap<Element: Comparable> {
  private var elements: [Element] = []

  var isEmpty: Bool { elements.isEmpty }
  var min: Element? { elements.first }

  mutating func insert(_ element: Element) {
    elements.append(element)
    var child = elements.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard elements[child] < elements[parent] else { break }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popMin() -> Element? {
    guard !elements.isEmpty else { return nil }
    elements.swapAt(0, elements.count - 1)
    let smallest = elements.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var least = parent
      if left < elements.count, elements[left] < elements[least] { least = left }
      if right < elements.count, elements[right] < elements[least] { least = right }
      guard least != parent else { return smallest }
      elements.swapAt(parent, least)
      parent = least
    }
  }
}
