import Foundation

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
/// Every call reflects the whole value: this is the cost the benchmark compares against. The
/// dumper itself is written to be fast (one output string, cached indentation, no temporary
/// strings per node), so that the baseline is not slower than it has to be.
struct ReflectionDumper {
  private var out = ""
  private var indents: [String] = [""]

  static func dump(_ value: Any) -> String {
    var dumper = ReflectionDumper()
    dumper.write(value, indent: 0)
    return dumper.out
  }

  private mutating func indentation(_ level: Int) -> String {
    while indents.count <= level {
      indents.append(String(repeating: " ", count: indents.count * 2))
    }
    return indents[level]
  }

  private mutating func write(_ value: Any, indent: Int) {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct?, .class?:
      out += typeName(of: value)
      if mirror.children.isEmpty {
        // Foundation types that reflect no fields (UUID, Date, URL) show their description,
        // as customDump does.
        out += "("
        if let described = value as? CustomStringConvertible { out += described.description }
        out += ")"
        return
      }
      out += "(\n"
      writeChildren(mirror, indent: indent, labelled: true)
      out += indentation(indent)
      out += ")"
    case .collection?, .set?:
      if mirror.children.isEmpty {
        out += "[]"
        return
      }
      out += "[\n"
      writeChildren(mirror, indent: indent, labelled: false)
      out += indentation(indent)
      out += "]"
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
        out += indentation(indent + 1)
        let pair = Mirror(reflecting: child.value).children
        if pair.count == 2, let key = pair.first, let element = pair.dropFirst().first {
          write(key.value, indent: indent + 1)
          out += ": "
          write(element.value, indent: indent + 1)
        } else {
          write(child.value, indent: indent + 1)
        }
      }
      out += "\n"
      out += indentation(indent)
      out += "]"
    case .optional?:
      if let child = mirror.children.first {
        write(child.value, indent: indent)
      } else {
        out += "nil"
      }
    case .enum?:
      out += typeName(of: value)
      out += "."
      guard let child = mirror.children.first else {
        out += String(describing: value)
        return
      }
      out += child.label ?? ""
      out += "(\n"
      let payload = Mirror(reflecting: child.value)
      if payload.displayStyle == .tuple {
        writeChildren(payload, indent: indent, labelled: true)
      } else {
        out += indentation(indent + 1)
        write(child.value, indent: indent + 1)
        out += "\n"
      }
      out += indentation(indent)
      out += ")"
    case .tuple?:
      out += "(\n"
      writeChildren(mirror, indent: indent, labelled: true)
      out += indentation(indent)
      out += ")"
    default:
      if let string = value as? String {
        out += string.debugDescription
      } else {
        out += String(describing: value)
      }
    }
  }

  private mutating func writeChildren(_ mirror: Mirror, indent: Int, labelled: Bool) {
    var index = 0
    for child in mirror.children {
      if index > 0 { out += ",\n" }
      out += indentation(indent + 1)
      if labelled, let label = child.label, !label.hasPrefix(".") {
        out += label
        out += ": "
      } else if !labelled {
        out += "["
        out += String(index)
        out += "]: "
      }
      write(child.value, indent: indent + 1)
      index += 1
    }
    out += "\n"
  }

  private func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }
}
