import TestSupport
import TraceValues

/// Builds random trees that reach every case and the awkward corners of the JSON mapping.
struct RandomTraceValue {
  var generator: SplitMix

  static let strings = [
    "", "a", "title", "$", "$case", "$$x", "é", "e\u{301}", "line\nbreak", "tab\t", "quote\"",
    "back\\slash", "\u{2028}\u{2029}", "\u{1B}[31m", "\u{0}", "\u{7F}", "👩‍👩‍👧", "日本語", "/",
  ]
  static let keys = ["id", "title", "done", "$bytes", "$case", "value", "_0", "_1", "a", "b"]

  init(seed: UInt64) { generator = SplitMix(seed: seed) }

  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }

  mutating func string() -> String {
    if int(0..<4) == 0 {
      let scalars = (0..<int(0..<6)).map { _ in
        Unicode.Scalar(UInt32.random(in: 0x20...0xD7FF, using: &generator)) ?? "x"
      }
      return String(String.UnicodeScalarView(scalars))
    }
    return Self.strings[int(0..<Self.strings.count)]
  }

  mutating func key() -> String {
    int(0..<8) == 0 ? string() : Self.keys[int(0..<Self.keys.count)]
  }

  mutating func double() -> Double {
    switch int(0..<8) {
    case 0:
      let special: [Double] = [
        0.0, -0.0, .nan, .infinity, -.infinity, 1e-300, .leastNonzeroMagnitude, .pi,
      ]
      return special[int(0..<special.count)]
    case 1: return Double(bitPattern: generator.next())
    case 2: return Double(int(-1000..<1000))
    default: return Double.random(in: -1e6..<1e6, using: &generator)
    }
  }

  mutating func scalar() -> TraceValue {
    switch int(0..<8) {
    case 0: return .null
    case 1: return .bool(int(0..<2) == 0)
    case 2:
      return int(0..<3) == 0
        ? .int([Int64.min, Int64.max, 0, -1][int(0..<4)]) : .int(Int64(int(-100..<100)))
    case 3: return .uint(UInt64(Int64.max) + 1 + UInt64(int(0..<1000)))
    case 4: return .double(double())
    case 5: return .bytes((0..<int(0..<7)).map { _ in UInt8(int(0..<256)) })
    default: return .string(string())
    }
  }

  mutating func fields(depth: Int) -> [TraceField] {
    (0..<int(0..<4)).map { _ in TraceField(key(), value(depth: depth - 1)) }
  }

  mutating func value(depth: Int = 4) -> TraceValue {
    if depth <= 0 || int(0..<3) == 0 { return scalar() }
    switch int(0..<5) {
    case 0: return .array((0..<int(0..<5)).map { _ in value(depth: depth - 1) })
    case 1: return .object(fields(depth: depth))
    case 2:
      let name = ["loading", "loaded", "childDetail", "none"][int(0..<4)]
      return .enumCase(
        name,
        int(0..<2) == 0
          ? [TraceField("_0", value(depth: depth - 1))]
          : fields(depth: depth))
    case 3: return .reflected(typeName: ["Foo", "Bar<Int>"][int(0..<2)], value(depth: depth - 1))
    default: return identifiedArray(depth: depth)
    }
  }

  /// An array of objects with distinct `id`s, the shape that diffs match by id.
  mutating func identifiedArray(depth: Int) -> TraceValue {
    var ids = Array(0..<8).map { Int64($0) }
    ids.shuffle(using: &generator)
    let stringIDs = int(0..<2) == 0
    return .array(
      ids.prefix(int(0..<6)).map { id in
        .object([
          TraceField("id", stringIDs ? .string("A\(id)") : .int(id)),
          TraceField("title", value(depth: depth - 2)),
        ])
      })
  }

  /// A copy of `value` with a few local edits (changed leaves, inserted, removed or moved
  /// elements and fields, changed cases), the kind of difference two recorded steps have.
  mutating func mutate(_ value: TraceValue, depth: Int) -> TraceValue {
    switch int(0..<12) {
    case 0: return self.value(depth: depth)
    case 1: return value
    default: break
    }
    switch value {
    case .array(var elements):
      let identified = elements.allSatisfy {
        if case .object(let fields) = $0 { return fields.first?.key == "id" }
        return false
      }
      switch int(0..<5) {
      case 0 where !elements.isEmpty:
        let index = int(0..<elements.count)
        elements[index] = mutate(elements[index], depth: depth - 1)
      case 1:
        let fresh: TraceValue =
          identified
          ? .object([
            TraceField("id", .int(Int64(100 + int(0..<1000)))), TraceField("title", scalar()),
          ])
          : self.value(depth: depth - 1)
        elements.insert(fresh, at: int(0..<(elements.count + 1)))
      case 2 where !elements.isEmpty:
        elements.remove(at: int(0..<elements.count))
      case 3 where elements.count > 1:
        let moved = elements.remove(at: int(0..<elements.count))
        elements.insert(moved, at: int(0..<(elements.count + 1)))
      default:
        for index in elements.indices where int(0..<3) == 0 {
          elements[index] = mutate(elements[index], depth: depth - 1)
        }
      }
      return .array(elements)
    case .object(var fields):
      switch int(0..<5) {
      case 0 where !fields.isEmpty:
        let index = int(0..<fields.count)
        fields[index].value = mutate(fields[index].value, depth: depth - 1)
      case 1:
        fields.append(TraceField(key(), self.value(depth: depth - 1)))
      case 2 where !fields.isEmpty:
        fields.remove(at: int(0..<fields.count))
      case 3 where fields.count > 1:
        fields.swapAt(0, fields.count - 1)
      default:
        for index in fields.indices where int(0..<2) == 0 {
          fields[index].value = mutate(fields[index].value, depth: depth - 1)
        }
      }
      return .object(fields)
    case .enumCase(let name, var fields):
      if int(0..<4) == 0 { return .enumCase(name + "X", fields) }
      for index in fields.indices where int(0..<2) == 0 {
        fields[index].value = mutate(fields[index].value, depth: depth - 1)
      }
      return .enumCase(name, fields)
    case .reflected(let typeName, let inner):
      if int(0..<4) == 0 { return .reflected(typeName: typeName + "2", inner) }
      return .reflected(typeName: typeName, mutate(inner, depth: depth - 1))
    default:
      return scalar()
    }
  }
}
