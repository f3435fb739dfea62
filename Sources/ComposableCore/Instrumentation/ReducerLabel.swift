/// The name of a child in the reducer tree and in cancellation ids, derived from its key path
/// and case path: `rows` for `\.rows`, `childDetail` for `.ifLet(\.$childDetail, action:
/// .childDetail)`. The same in every run, and never a memory address.
///
/// In order of preference: the case path's name when it is known to be the case's (given, or
/// read from a case key path: `\.rows`); the key path's property names (Swift prints stored
/// properties' names, `\State.folder.rows`); for presentation, the label of the action case,
/// read with `Mirror` from `PresentationAction.dismiss` embedded through the case path (Linux
/// prints a computed key path such as `\.$detail` as `<computed 0x… (Type)>`); the name of the
/// property the case path was declared as (`.rows`; only a convention, see `CasePathNaming`);
/// else the computed key path's value type, without its address.
///
/// ```swift
/// ReducerLabel(keyPath: \Parent.State.rows).text                         // "rows"
/// ReducerLabel(keyPath: \Home.State.$sheet, presentation: .sheet).text  // "sheet"
/// ```
///
/// Built on every child action, so it only keeps what it needs; the text is made when asked.
@usableFromInline
package struct ReducerLabel: Sendable {
  @usableFromInline let keyPath: AnyKeyPath & Sendable
  /// The case path's naming, turned into a name only when the text is asked for.
  @usableFromInline let caseNaming: CasePathNaming
  @usableFromInline let probe: (any CaseLabelProbe)?

  /// The label of a child reached by a key path (and a case name, when one is known).
  @usableFromInline
  package init(keyPath: AnyKeyPath & Sendable, caseName: String? = nil) {
    self.keyPath = keyPath
    self.caseNaming = caseName.map(CasePathNaming.name) ?? .none
    self.probe = nil
  }

  /// The label of a child reached by a key path and a case path (named by the case path when
  /// it knows its case's name). Inlinable, as the next one: built on every child action, it is
  /// specialized where the types are known instead of looking their metadata up.
  @inlinable
  package init<Root, Value>(keyPath: AnyKeyPath & Sendable, casePath: AnyCasePath<Root, Value>) {
    self.keyPath = keyPath
    self.caseNaming = casePath.naming
    self.probe = nil
  }

  /// The label of a presented child: its action case names it when its key path cannot.
  @inlinable
  package init<Root, Action>(
    keyPath: AnyKeyPath & Sendable,
    presentation casePath: AnyCasePath<Root, PresentationAction<Action>>
  ) {
    self.keyPath = keyPath
    self.caseNaming = casePath.naming
    self.probe = DismissProbe(embed: casePath.embed)
  }

  /// The label text.
  package var text: String {
    Self.text(keyPath: keyPath, caseNaming: caseNaming, probe: probe)
  }

  /// The label of a child reached by `keyPath` (`Scope` keeps a key path that is not
  /// `Sendable`, and only ever needs the text).
  static func text(
    keyPath: AnyKeyPath, caseNaming: CasePathNaming, probe: (any CaseLabelProbe)? = nil
  ) -> String {
    let caseName = caseNaming.name.map(withoutKeyPathPrefix).flatMap { $0.isEmpty ? nil : $0 }
    if let caseName, caseNaming.isKnownCaseName {
      return caseName
    }
    if let name = storedName(keyPath) {
      return name
    }
    if let caseLabel = probe?.caseLabel {
      return caseLabel
    }
    return caseName ?? withoutComputedAddresses(relative(keyPath))
  }

  /// `rows` for `\State.rows`; nil when a component is computed (Linux cannot name it).
  static func storedName(_ keyPath: AnyKeyPath) -> String? {
    let text = relative(keyPath)
    guard !text.contains("<computed"), text.hasPrefix("\\.") else { return nil }
    return String(text.dropFirst(2))
  }

  /// `\.rows` for `\Root.rows` (Swift prints the root type's name).
  static func relative(_ keyPath: AnyKeyPath) -> String {
    let text = String(describing: keyPath)
    let rootName = "\\" + String(describing: type(of: keyPath).rootType)
    if text.hasPrefix(rootName + ".") {
      return "\\" + text.dropFirst(rootName.count)
    }
    return text
  }

  static func withoutKeyPathPrefix(_ name: String) -> String {
    name.hasPrefix("\\.") ? String(name.dropFirst(2)) : name
  }

  /// Replaces every `<computed 0xADDRESS (Type)>` with `<computed Type>`.
  static func withoutComputedAddresses(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: "<computed 0x") {
      result += rest[..<start.lowerBound]
      let afterAddress = rest[start.upperBound...].drop { $0.isHexDigit }
      guard afterAddress.hasPrefix(" (") else {
        result += rest[start.lowerBound..<start.upperBound]
        rest = rest[start.upperBound...]
        continue
      }
      result += "<computed "
      rest = afterAddress.dropFirst(2)
      // The type ends at the ")>" that closes this component.
      if let end = rest.range(of: ")>") {
        result += rest[..<end.lowerBound] + ">"
        rest = rest[end.upperBound...]
      }
    }
    return result + rest
  }
}

/// Reads the name of the action case a child's actions travel in.
@usableFromInline
package protocol CaseLabelProbe: Sendable {
  /// The case's label, or nil when the embedding is not an enum case.
  var caseLabel: String? { get }
}

/// Embeds `.dismiss` (the one action every presented child has) and reads the case it lands in.
@usableFromInline
struct DismissProbe<Root, Action: Sendable>: CaseLabelProbe {
  let embed: @Sendable (PresentationAction<Action>) -> Root

  @usableFromInline
  init(embed: @escaping @Sendable (PresentationAction<Action>) -> Root) {
    self.embed = embed
  }

  @usableFromInline var caseLabel: String? {
    let root = embed(.dismiss)
    let mirror = Mirror(reflecting: root)
    guard mirror.displayStyle == .enum, let label = mirror.children.first?.label else {
      return nil
    }
    return label
  }
}
