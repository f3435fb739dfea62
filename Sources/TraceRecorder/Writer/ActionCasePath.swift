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
    // Built in place: an array of names, one of the cases found per level and a join cost
    // about a thousand instructions per action encoded.
    var path = ""
    var isFirst = true
    var current = value
    while case .enumCase(let name, let fields) = current {
      if !isFirst { path += "." }
      isFirst = false
      path += name
      var inner: TraceValue?
      var cases = 0
      for index in fields.indices {
        guard case .enumCase = fields[index].value else { continue }
        cases += 1
        if cases == 1 { inner = fields[index].value }
      }
      guard cases == 1, let inner else { break }
      current = inner
    }
    return path
  }
}
