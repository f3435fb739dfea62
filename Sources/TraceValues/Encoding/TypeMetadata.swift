@_spi(Reflection) import Swift

/// What the Swift runtime's metadata says about a type that nothing public tells: its kind,
/// whether an existential holds class instances only, and every payload type of an enum
/// (every case, not only the one a value holds).
///
/// ```swift
/// enum Count { case plain(Int), boxed(Box), pair(Int, Box), none }
/// TypeMetadata.enumPayloadTypes(of: Count.self)  // [Int, Box, (Int, Box)]
/// TypeMetadata.kind(of: (any Error).self)        // .existential
/// ```
///
/// Read from the layouts the Swift ABI keeps stable (docs/ABI/TypeMetadata.rst and the
/// runtime's `TargetEnumDescriptor`, `FieldDescriptor`, `FieldRecord`): a value type's
/// metadata holds its kind word, then its nominal type descriptor, then its generic
/// arguments; the descriptor's fifth word is a relative pointer to its field descriptor.
package enum TypeMetadata {
  /// The runtime's kind of `type`: a kind word above the last enumerated kind (0x7FF) is a
  /// class's isa pointer.
  package static func kind(of type: Any.Type) -> _MetadataKind {
    let word = metadata(type).load(as: UInt.self)
    if word > 0x7FF { return .class }
    return _MetadataKind(rawValue: word) ?? .unknown
  }

  /// Whether an existential type (`.existential` kind) holds class instances only
  /// (`any AnyObject`, a class-bound protocol): its flags' class-constraint bit is clear.
  static func isClassBoundExistential(_ type: Any.Type) -> Bool {
    let flags = metadata(type).load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
    return flags & 0x8000_0000 == 0
  }

  /// Whether an existential type (`.existential` kind) keeps its value in an opaque
  /// container (`Any`, `any P`): neither class-bound nor `any Error` (the flags' special
  /// protocol bits, 0x3F000000, are 1 for `Error`, whose value is a boxed reference).
  static func isOpaqueExistential(_ type: Any.Type) -> Bool {
    let flags = metadata(type).load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
    return flags & 0x8000_0000 != 0 && flags & 0x3F00_0000 == 0
  }

  /// The type of the value in the opaque existential container at `container`: the word
  /// after its three-word value buffer.
  @inline(__always)
  static func openedType(at container: UnsafeRawPointer) -> Any.Type {
    unsafeBitCast(
      container.load(fromByteOffset: 3 * wordSize, as: UnsafeRawPointer.self), to: Any.Type.self)
  }

  /// The payload type of each case of an enum that has one (a case with several values has a
  /// tuple type), or nil when the metadata cannot be read: an enum compiled without
  /// reflection metadata, or a payload type the runtime cannot resolve. In the order of the
  /// tags the runtime gives the cases' values (`enumTag(of:)`): the cases with a payload, in
  /// their declared order, then those without (`enumCaseCounts(of:)`).
  static func enumPayloadTypes(of type: Any.Type) -> [Any.Type]? {
    let kind = kind(of: type)
    guard kind == .enum || kind == .optional else { return nil }
    let metadata = metadata(type)
    let descriptor = metadata.load(fromByteOffset: wordSize, as: UnsafeRawPointer.self)
    let payloadCases = enumCaseCounts(of: type).payload
    guard let fields = relative(descriptor + 16) else {
      return payloadCases == 0 ? [] : nil
    }
    let isGeneric = descriptor.load(as: UInt32.self) & 0x80 != 0
    // A value type's generic arguments follow its kind word and descriptor.
    let arguments = isGeneric ? metadata + 2 * wordSize : nil
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let records = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    var payloads: [Any.Type] = []
    for index in 0..<records {
      let record = fields + 16 + index * recordSize
      // A case without a payload has no type name.
      guard let name = relative(record + 4) else { continue }
      let bytes = name.assumingMemoryBound(to: UInt8.self)
      guard
        let payload = _getTypeByMangledNameInContext(
          bytes, UInt(mangledNameLength(bytes)), genericContext: descriptor,
          genericArguments: arguments)
      else { return nil }
      payloads.append(payload)
    }
    return payloads.count == payloadCases ? payloads : nil
  }

  /// The number of cases with a payload and without one of an enum type (the descriptor's
  /// `NumPayloadCasesAndPayloadSizeOffset`, low 24 bits, and `NumEmptyCases`): the empty
  /// cases' tags follow the payload cases'.
  static func enumCaseCounts(of type: Any.Type) -> (payload: Int, empty: Int) {
    let descriptor = metadata(type).load(fromByteOffset: wordSize, as: UnsafeRawPointer.self)
    return (
      Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF),
      Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    )
  }

  /// The tag of an enum value: which case it holds, numbered as `enumPayloadTypes(of:)` lists
  /// them. Asked of the enum value witness table's `getEnumTag` (after the common table's eight
  /// functions, its size, stride, flags and extra inhabitant count), as the runtime's mirror
  /// asks it.
  @inline(__always)
  static func enumTag<T>(of value: T) -> Int {
    let metadata = metadata(T.self)
    let witnesses = metadata.load(fromByteOffset: -wordSize, as: UnsafeRawPointer.self)
    let getEnumTag = witnesses.load(
      fromByteOffset: 10 * wordSize + 8,
      as: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32).self)
    return withUnsafePointer(to: value) { Int(getEnumTag($0, metadata)) }
  }

  /// The nominal type descriptor of a struct, enum or optional type, as a bit pattern: the
  /// same for every specialization of a generic type (`[Int]` and `[String]`).
  static func descriptor(of type: Any.Type) -> UInt {
    metadata(type).load(fromByteOffset: wordSize, as: UInt.self)
  }

  /// The generic argument at `index` of a generic struct, enum or optional type.
  static func genericArgument(_ index: Int, of type: Any.Type) -> Any.Type {
    let argument = metadata(type).load(
      fromByteOffset: (2 + index) * wordSize, as: UnsafeRawPointer.self)
    return unsafeBitCast(argument, to: Any.Type.self)
  }

  private static let wordSize = MemoryLayout<UnsafeRawPointer>.size

  private static func metadata(_ type: Any.Type) -> UnsafeRawPointer {
    unsafeBitCast(type, to: UnsafeRawPointer.self)
  }

  /// The target of the 32-bit relative pointer at `address`, nil when it is zero.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.load(as: Int32.self)
    return offset == 0 ? nil : address + Int(offset)
  }

  /// The length of a mangled name, which may embed references to other metadata: bytes 0x01
  /// to 0x17 start a 4-byte relative reference, 0x18 to 0x1F a pointer-sized absolute one
  /// (either may hold a zero byte), as the runtime's `makeSymbolicMangledNameStringRef` reads.
  private static func mangledNameLength(_ name: UnsafePointer<UInt8>) -> Int {
    var length = 0
    while true {
      switch name[length] {
      case 0: return length
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + wordSize
      default: length += 1
      }
    }
  }
}
