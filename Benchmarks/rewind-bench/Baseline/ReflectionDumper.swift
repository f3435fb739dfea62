/// Dumps any value into indented text by walking it with `Mirror`, the way swift-custom-dump's
/// `customDump` does for the upstream library's `_printChanges`: type names, labelled fields,
/// indexed collection elements, quoted strings, enum cases with their payloads.
///
/// ```swift
/// struct Todo { var id = 1; var title = "Milk"; var isComplete = false }
/// print(ReflectionDumper.dump(Todo()))
/// // Todo(
/// //   id: 1,
/// //   title: "Milk",
/// //   isComplete: false
/// // )
/// ```
///
/// Every call reflects the whole value: this is the cost the benchmark compares against.
enum ReflectionDumper {
  static func dump(_ value: Any) -> String {
    var out = ""
    write(value, into: &out, indent: 0)
    return out
  }

  private static func write(_ value: Any, into out: inout String, indent: Int) {
    let mirror = Mirror(reflecting: value)
    let pad = String(repeating: " ", count: indent + 2)
    switch mirror.displayStyle {
    case .struct?, .class?:
      let name = typeName(of: value)
      if mirror.children.isEmpty {
        out += name + "()"
        return
      }
      out += name + "(\n"
      writeChildren(mirror, into: &out, indent: indent, pad: pad, labelled: true)
      out += String(repeating: " ", count: indent) + ")"
    case .collection?, .set?:
      if mirror.children.isEmpty {
        out += "[]"
        return
      }
      out += "[\n"
      writeChildren(mirror, into: &out, indent: indent, pad: pad, labelled: false)
      out += String(repeating: " ", count: indent) + "]"
    case .dictionary?:
      if mirror.children.isEmpty {
        out += "[:]"
        return
      }
      out += "[\n"
      var first = true
      for child in mirror.children {
        if !first { out += ",\n" }
        first = false
        let pair = Array(Mirror(reflecting: child.value).children)
        out += pad
        if pair.count == 2 {
          write(pair[0].value, into: &out, indent: indent + 2)
          out += ": "
          write(pair[1].value, into: &out, indent: indent + 2)
        } else {
          write(child.value, into: &out, indent: indent + 2)
        }
      }
      out += "\n" + String(repeating: " ", count: indent) + "]"
    case .optional?:
      if let child = mirror.children.first {
        write(child.value, into: &out, indent: indent)
      } else {
        out += "nil"
      }
    case .enum?:
      let name = typeName(of: value)
      guard let child = mirror.children.first else {
        out += name + "." + String(describing: value)
        return
      }
      out += name + "." + (child.label ?? "")
      let payload = Mirror(reflecting: child.value)
      if payload.displayStyle == .tuple {
        out += "(\n"
        writeChildren(payload, into: &out, indent: indent, pad: pad, labelled: true)
        out += String(repeating: " ", count: indent) + ")"
      } else {
        out += "(\n" + pad
        write(child.value, into: &out, indent: indent + 2)
        out += "\n" + String(repeating: " ", count: indent) + ")"
      }
    case .tuple?:
      out += "(\n"
      writeChildren(mirror, into: &out, indent: indent, pad: pad, labelled: true)
      out += String(repeating: " ", count: indent) + ")"
    default:
      if let string = value as? String {
        out += string.debugDescription
      } else {
        out += String(describing: value)
      }
    }
  }

  private static func writeChildren(
    _ mirror: Mirror, into out: inout String, indent: Int, pad: String, labelled: Bool
  ) {
    var index = 0
    for child in mirror.children {
      if index > 0 { out += ",\n" }
      out += pad
      if labelled, let label = child.label, !label.hasPrefix(".") {
        out += label + ": "
      } else if !labelled {
        out += "[\(index)]: "
      }
      write(child.value, into: &out, indent: indent + 2)
      index += 1
    }
    out += "\n"
  }

  private static func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }
}
