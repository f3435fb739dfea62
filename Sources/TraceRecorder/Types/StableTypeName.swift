import Locking

/// A type's name as a trace stores it: `String(reflecting:)`, with the process address it
/// prints for a private type's context replaced, so two recordings store the same text.
///
/// ```swift
/// StableTypeName.of("ComposableCore.(unknown context at $55c6d5523300).DateGeneratorKey")
/// // "ComposableCore.(private).DateGeneratorKey"
/// ```
enum StableTypeName {
  private static let marker = Array("(unknown context at $".utf8)

  /// `name` with each `(unknown context at $…)` replaced by `(private)`; a marker with no `)`
  /// after it is dropped up to the end of the marker.
  ///
  /// The marker is looked for in the name's UTF-8 bytes: `String.contains` and `range(of:)`
  /// resolved to Foundation's, which searched through `NSString` at about 8,400 instructions a
  /// name (callgrind, a recording's type walks: about 90 names each).
  static func of(_ name: String) -> String {
    let bytes = Array(name.utf8)
    guard var start = markerStart(in: bytes, from: 0) else { return name }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var rest = 0
    while true {
      result.append(contentsOf: bytes[rest..<start])
      result.append(contentsOf: "(private)".utf8)
      rest = start + marker.count
      if let end = bytes[rest...].firstIndex(of: UInt8(ascii: ")")) { rest = end + 1 }
      guard let next = markerStart(in: bytes, from: rest) else { break }
      start = next
    }
    result.append(contentsOf: bytes[rest...])
    // Cut only at ASCII bytes of the name, so the bytes are UTF-8 still.
    return String(decoding: result, as: UTF8.self)
  }

  /// The index in `bytes` at or after `from` where `marker` starts; nil when it does not.
  private static func markerStart(in bytes: [UInt8], from: Int) -> Int? {
    let last = bytes.count - marker.count
    guard from <= last else { return nil }
    let first = marker[0]
    var index = from
    while index <= last {
      if bytes[index] == first, bytes[index..<(index + marker.count)].elementsEqual(marker) {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The names made so far, by type (a type's metadata lives as long as the process): a
  /// recording's type walks meet the same types again, each recording of the process, and
  /// `String(reflecting:)` of a type costs thousands of instructions.
  private static let known = Lock<[ObjectIdentifier: String]>([:])
  /// Types whose names are kept: more (a process that makes types without end) are named
  /// each time.
  private static var knownLimit: Int { 4096 }

  static func of(_ type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let name = known.withLock({ $0[id] }) { return name }
    let name = of(String(reflecting: type))
    known.withLock { names in
      if names.count < knownLimit { names[id] = name }
    }
    return name
  }
}
