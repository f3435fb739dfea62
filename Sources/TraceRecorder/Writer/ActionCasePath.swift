import TraceKit

/// The case path of an encoded action: the names of its nested enum cases, joined by dots.
///
/// ```swift
/// // Action.folderTab(.calendar(.dateSelected(date)))
/// ActionCasePath.path(of: try TraceValueEncoder().encode(action))
/// // "folderTab.calendar.dateSelected"
/// ```
///
/// A case is entered when exactly one of its associated values is itself an enum case
/// (`.rows(.element(id: 3, action: .toggled))` gives `rows.element.toggled`).
enum ActionCasePath {
  static func path(of value: TraceValue) -> String {
    var names: [String] = []
    var current = value
    while case .enumCase(let name, let fields) = current {
      names.append(name)
      let cases = fields.filter {
        if case .enumCase = $0.value { return true }
        return false
      }
      guard cases.count == 1 else { break }
      current = cases[0].value
    }
    return names.joined(separator: ".")
  }
}
